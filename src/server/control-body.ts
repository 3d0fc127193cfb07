import type { NextFunction, Request, Response } from 'express';
import type { z, ZodType } from 'zod';
import { sendErrorBody } from './control-errors.js';
import { parseInput } from '../schemas.js';

/** The largest control-API body (a whole state snapshot fits). */
const CONTROL_BODY_LIMIT_BYTES = 5 * 1024 * 1024;
/** The deepest nesting of arrays and objects a control body may have: a snapshot needs 6; 64 leaves room. */
const CONTROL_BODY_MAX_DEPTH = 64;

/** Fields of a control body's top level at most: none has more than a few (a snapshot has a few dozen). */
const CONTROL_BODY_MAX_FIELDS = 1000;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** The statuses a body is refused with, by error code. */
const REFUSALS = { unsupported_media_type: 415, request_too_large: 413, invalid_request: 400 } as const;

function refuse(req: Request, res: Response, code: keyof typeof REFUSALS, message: string): void {
  // What the client still sends is not read: the connection closes after the answer.
  res.set('Connection', 'close');
  sendErrorBody(res, REFUSALS[code], code, message);
  req.unpipe();
  req.resume();
}

/**
 * The control API's body reader (in place of express.json): a body must be JSON (`Content-Type: application/json`,
 * else 415), at most 5 MiB (else 413), nested at most 64 deep and with at most 1000 fields at its top level (else 400).
 * Size, depth and fields are checked on the bytes
 * as they arrive, so a hostile body is refused at the first byte too many, before anything is parsed or kept.
 * No body at all leaves `req.body` undefined.
 */
export function readControlBody(req: Request, res: Response, next: NextFunction): void {
  const length = req.headers['content-length'];
  if ((length === undefined || length === '0') && req.headers['transfer-encoding'] === undefined) return next();
  const type = req.headers['content-type'] ?? '';
  if (!JSON_TYPE.test(type)) {
    return refuse(
      req,
      res,
      'unsupported_media_type',
      `The control API reads JSON bodies only: send Content-Type: application/json${type ? ` (got '${type.slice(0, 100)}')` : ''}.`,
    );
  }
  if (length !== undefined && Number(length) > CONTROL_BODY_LIMIT_BYTES)
    return refuse(req, res, 'request_too_large', 'The request body is larger than 5 MiB.');
  const chunks: Buffer[] = [];
  let size = 0;
  let depth = 0;
  let fields = 0;
  let inString = false;
  let escaped = false;
  let done = false;
  const onData = (chunk: Buffer): void => {
    if (done) return;
    size += chunk.length;
    if (size > CONTROL_BODY_LIMIT_BYTES) {
      done = true;
      return refuse(req, res, 'request_too_large', 'The request body is larger than 5 MiB.');
    }
    for (const c of chunk) {
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) inString = false;
      } else if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) {
        if (++depth > CONTROL_BODY_MAX_DEPTH) {
          done = true;
          return refuse(
            req,
            res,
            'invalid_request',
            `Invalid request body: nested deeper than ${CONTROL_BODY_MAX_DEPTH} levels.`,
          );
        }
      } else if (c === 0x7d || c === 0x5d) depth -= 1;
      else if (c === 0x2c && depth === 1 && ++fields >= CONTROL_BODY_MAX_FIELDS) {
        done = true;
        return refuse(
          req,
          res,
          'invalid_request',
          `Invalid request body: more than ${CONTROL_BODY_MAX_FIELDS} fields at its top level (no control body has that many).`,
        );
      }
    }
    chunks.push(chunk);
  };
  req.on('data', onData);
  req.on('error', () => {
    done = true;
    req.socket.destroy();
  });
  req.on('end', () => {
    if (done) return;
    done = true;
    try {
      req.body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    } catch {
      sendErrorBody(res, 400, 'invalid_request', 'Invalid request body: it is not valid JSON.');
      return;
    }
    next();
  });
}

/** The request body read with one of the shared schemas (no body reads as `{}`); a wrong field is a 400 naming it. */
export function body<S extends ZodType>(schema: S, req: Request): z.output<S> {
  return parseInput(schema, req.body === undefined ? {} : req.body, 'the request body');
}
