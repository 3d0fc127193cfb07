import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import cors from 'cors';
import express from 'express';
import { errorBody } from '../rules/errors.js';
import type { ListenOptions, RunningServer, SandboxCore as Sandbox } from '../sandbox.js';
import { createApiDoor } from './api-door.js';
import { controlErrorHandler, createControlRouter } from './control.js';

export const DEFAULT_HOST = '127.0.0.1';

/** Headers a browser client may send to the API, and those it may read. */
const API_CORS = cors({
  origin: '*',
  methods: ['GET', 'POST'],
  allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Sandbox-Scenario'],
  exposedHeaders: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'Location', 'Idempotent-Replayed'],
  maxAge: 600,
});

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

export interface SandboxServer extends RunningServer {
  /** The token the control API asks for, when one is needed. */
  controlToken: string | undefined;
  host: string;
}

/**
 * Serves a sandbox over HTTP: `{basePath}/…` through the request core with no framework on the hot path, the control
 * API and everything else through express.
 */
export async function listen(sandbox: Sandbox, options: ListenOptions = {}): Promise<SandboxServer> {
  const host = options.host ?? DEFAULT_HOST;
  const controlToken = options.controlToken ?? (isLoopback(host) ? undefined : randomBytes(18).toString('base64url'));
  const basePath = sandbox.basePath;
  const apiDoor = createApiDoor(sandbox, basePath, options.handlers);

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use('/__sandbox', rejectCrossOrigin, createControlRouter(sandbox, controlToken));
  app.get('/', (_req, res) => {
    res.json({ name: 'agent-work-sandbox', base_url: `${basePath}`, control_api: '/__sandbox', inspector: '/__sandbox/', openapi: '/__sandbox/openapi.json' });
  });
  app.use((req, res) => {
    res.status(404).type('application/json; charset=utf-8').send(errorBody('not_found', `No route for ${req.method} ${req.path}. The API lives under ${basePath}.`));
  });
  app.use(controlErrorHandler);

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    if (url.startsWith(`${basePath}/`) || url === basePath || url.startsWith(`${basePath}?`)) {
      API_CORS(req as never, res as never, () => apiDoor(req, res));
    } else {
      app(req, res);
    }
  });
  // Slow clients (slowloris) are cut off instead of holding sockets forever.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n' + errorBody('invalid_request', 'Malformed HTTP request.'));
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    host,
    controlToken,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

/** The control API answers same-origin pages only: a request with another Origin is refused (no CORS, no CSRF). */
function rejectCrossOrigin(req: express.Request, res: express.Response, next: express.NextFunction): void {
  const origin = req.get('origin');
  if (origin === undefined) return next();
  let sameHost = false;
  try {
    sameHost = new URL(origin).host === req.get('host');
  } catch {
    sameHost = false;
  }
  if (sameHost) return next();
  res.status(403).type('application/json; charset=utf-8').send(errorBody('insufficient_scope', 'The control API answers same-origin requests only.'));
}
