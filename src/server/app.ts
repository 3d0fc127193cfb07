import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from 'cors';
import express from 'express';
import type { SandboxCore as Sandbox } from '../sandbox-types.js';
import { createControlRouter } from './control.js';
import type { StateFileStatus } from './durable-state.js';
import { controlErrorHandler, sendErrorBody } from './control-errors.js';
import { API_CORS_OPTIONS } from './cors-options.js';
import { hostOfHeader, isLoopback } from './loopback.js';
import { WEBHOOK_USER_AGENT } from '../webhooks/url-guard.js';

/** The server's paths off the API's hot path, loaded after the socket listens. */
export interface SlowPaths {
  /** Express: the control API, `/`, and 404 for everything else. */
  app: (req: IncomingMessage, res: ServerResponse) => void;
  /** `cors` for the API's preflight requests. */
  apiCors: (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
}

/** Who may use the control API (a token on an exposed host; loopback-only Host checks), and the state file's saves. */
export interface SlowPathOptions {
  controlToken: string | undefined;
  loopback: boolean;
  stateFileStatus?: () => StateFileStatus;
}

export function createSlowPaths(sandbox: Sandbox, options: SlowPathOptions): SlowPaths {
  const { controlToken, loopback, stateFileStatus } = options;
  const basePath = sandbox.basePath;
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(
    '/__sandbox',
    rejectWebhookLoop,
    rejectCrossOrigin,
    ...(loopback ? [rejectForeignHost] : []),
    createControlRouter(sandbox, controlToken, stateFileStatus),
  );
  app.get('/', (_req, res) => {
    res.json({
      name: 'agent-work-sandbox',
      base_url: basePath,
      control_api: '/__sandbox',
      inspector: '/__sandbox/',
      openapi: '/__sandbox/openapi.json',
    });
  });
  app.use((req, res) => {
    sendErrorBody(res, 404, 'not_found', `No route for ${req.method} ${req.path}. The API lives under ${basePath}.`);
  });
  app.use(controlErrorHandler);
  const apiCors = cors({ ...API_CORS_OPTIONS, exposedHeaders: [...API_CORS_OPTIONS.exposedHeaders] });
  return {
    app: (req, res) => {
      app(req, res);
    },
    apiCors: (req, res, next) => {
      apiCors(req, res, next);
    },
  };
}

/** The sandbox's own webhook messages never act on a sandbox's control API (however their URL reached it). */
function rejectWebhookLoop(req: express.Request, res: express.Response, next: express.NextFunction): void {
  if (req.get('user-agent') !== WEBHOOK_USER_AGENT) return next();
  sendErrorBody(res, 403, 'insufficient_scope', 'The control API does not answer webhook messages of the sandbox.');
}

/** The control API answers same-origin pages only: a request with another Origin is refused (no CORS, no CSRF). */
function rejectCrossOrigin(req: express.Request, res: express.Response, next: express.NextFunction): void {
  const origin = req.get('origin');
  if (origin === undefined) return next();
  if (URL.canParse(origin) && new URL(origin).host === req.get('host')) return next();
  sendErrorBody(res, 403, 'insufficient_scope', 'The control API answers same-origin requests only.');
}

/**
 * On a loopback bind the control API answers requests addressed to a loopback name only: a page whose own name was
 * re-pointed at 127.0.0.1 (DNS rebinding) sends its own name in `Host` and is refused, although it is "same-origin".
 */
function rejectForeignHost(req: express.Request, res: express.Response, next: express.NextFunction): void {
  const hostname = hostOfHeader(req.get('host'));
  if (isLoopback(hostname)) return next();
  sendErrorBody(
    res,
    403,
    'insufficient_scope',
    'The control API answers requests addressed to localhost or 127.0.0.1 only.',
  );
}
