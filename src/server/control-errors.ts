/** Error answers of the express side of the server (control API, inspector, 404s), always in the error shape. */
import type { NextFunction, Request, Response } from 'express';
import { JSON_CONTENT_TYPE } from '../core/handle.js';
import { maskKeys } from '../core/mask.js';
import { SandboxError } from '../errors.js';
import { ApiError, ERRORS, errorBody, type ErrorCode } from '../rules/errors.js';

/**
 * `{ "error": { code, message } }` with the given status. Every error of the express side passes here, so keys a
 * message echoes (from a path, a query, a Content-Type, a field name) are masked here, once for all.
 */
export function sendErrorBody(res: Response, status: number, code: string, message: string): void {
  res
    .status(status)
    .type(JSON_CONTENT_TYPE)
    .send(errorBody(code, maskKeys(message)));
}

/** A catalogued error: its status, and its message unless another is given. */
export function sendError(res: Response, code: ErrorCode, message: string = ERRORS[code].message): void {
  sendErrorBody(res, ERRORS[code].status, code, message);
}

/** Every error leaves in the error shape; nothing else (no stack, no HTML). */
export function controlErrorHandler(error: unknown, _req: Request, res: Response, _next: NextFunction): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  if (error instanceof ApiError) return sendError(res, error.code, error.message);
  // Every other error of the package (one tree, src/errors.ts): a catalogued code as it is, else a bad request its message explains.
  if (error instanceof SandboxError)
    return sendError(
      res,
      Object.hasOwn(ERRORS, error.code) ? (error.code as ErrorCode) : 'invalid_request',
      error.message.replace(/^\[agent-work-sandbox\] /, ''),
    );
  // express's own errors (a body it could not read) carry a 4xx `status`.
  const status = (error as { status?: unknown } | null | undefined)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return sendError(res, 'invalid_request', 'The request could not be read.');
  sendError(res, 'internal_error');
}
