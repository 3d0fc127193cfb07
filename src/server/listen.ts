import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { SlowPaths } from './app.js';
import { ERRORS, errorBody } from '../rules/errors.js';
import type { ListenOptions, RunningServer, SandboxCore as Sandbox } from '../sandbox.js';
import { createApiDoor } from './api-door.js';
import { API_CORS_OPTIONS } from './cors-options.js';

export const DEFAULT_HOST = '127.0.0.1';

/** What `cors` sets on an API answer that is not a preflight (origin '*'): set directly, once per request. */
const API_CORS_ORIGIN = '*';
const API_CORS_EXPOSED = API_CORS_OPTIONS.exposedHeaders.join(',');

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
  const apiDoor = createApiDoor(sandbox, basePath);

  // Express (control API, preflights, everything off the API) loads after the socket listens: it is most of the
  // start-up time, and the API's hot path does not use it.
  let slow: SlowPaths | undefined;
  let loading: Promise<SlowPaths> | undefined;
  const slowPaths = (): Promise<SlowPaths> =>
    (loading ??= import('./app.js').then((m) => (slow = m.createSlowPaths(sandbox, basePath, controlToken))));
  const viaSlow = (req: IncomingMessage, res: ServerResponse, use: (s: SlowPaths) => void) => {
    if (slow) return use(slow);
    slowPaths().then(use, () => {
      res.statusCode = 500;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(errorBody('internal_error', ERRORS.internal_error.message));
    });
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    if (url.startsWith(`${basePath}/`) || url === basePath || url.startsWith(`${basePath}?`)) {
      if (req.method === 'OPTIONS') return viaSlow(req, res, (s) => s.apiCors(req, res, () => apiDoor(req, res)));
      res.setHeader('Access-Control-Allow-Origin', API_CORS_ORIGIN);
      res.setHeader('Access-Control-Expose-Headers', API_CORS_EXPOSED);
      apiDoor(req, res);
    } else {
      viaSlow(req, res, (s) => s.app(req, res));
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
  // Preloaded shortly after, so that the first request to the API is not queued behind compiling express.
  setTimeout(() => void slowPaths().catch(() => undefined), 250).unref();
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
