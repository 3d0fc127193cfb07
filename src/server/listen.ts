import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import cors from 'cors';
import express from 'express';
import { errorBody } from '../rules/errors.js';
import type { ListenOptions, RunningServer, SandboxCore as Sandbox } from '../sandbox.js';
import { createApiDoor } from './api-door.js';
import { controlErrorHandler, createControlRouter } from './control.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** After `close()`, how long requests still in flight may take before their sockets are cut. */
const CLOSE_GRACE_MS = 10_000;

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
  let closing = false;
  const inFlight = new Map<Socket, number>();
  const apiDoor = createApiDoor(sandbox, basePath, () => closing, options.handlers);

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use('/__sandbox', rejectCrossOrigin, ...(isLoopback(host) ? [rejectForeignHost] : []), createControlRouter(sandbox, controlToken));
  app.get('/', (_req, res) => {
    res.json({ name: 'agent-work-sandbox', base_url: `${basePath}`, control_api: '/__sandbox', inspector: '/__sandbox/', openapi: '/__sandbox/openapi.json' });
  });
  app.use((req, res) => {
    res.status(404).type('application/json; charset=utf-8').send(errorBody('not_found', `No route for ${req.method} ${req.path}. The API lives under ${basePath}.`));
  });
  app.use(controlErrorHandler);

  // Slow clients (slowloris) are cut off instead of holding sockets forever; node checks the deadlines every
  // `connectionsCheckingInterval` ms, so that follows the shortest timeout.
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const headersTimeout = Math.min(options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS, requestTimeout);
  const connectionsCheckingInterval = Math.max(50, Math.min(30_000, Math.floor(headersTimeout / 4)));
  const server = createServer({ headersTimeout, requestTimeout, connectionsCheckingInterval }, (req: IncomingMessage, res: ServerResponse) => {
    // Sockets are tracked by their unanswered requests, so that closing waits for answers still to be written
    // (node's own idea of an idle connection counts a request as done once it has been read).
    const socket = req.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.once('close', () => {
      const busy = (inFlight.get(socket) ?? 1) - 1;
      if (inFlight.has(socket)) inFlight.set(socket, busy);
      if (closing && busy === 0) socket.end();
    });
    if (closing) res.setHeader('Connection', 'close');
    const url = req.url ?? '/';
    if (url.startsWith(`${basePath}/`) || url === basePath || url.startsWith(`${basePath}?`)) {
      API_CORS(req as never, res as never, () => apiDoor(req, res));
    } else {
      app(req, res);
    }
  });
  server.on('connection', (socket: Socket) => {
    inFlight.set(socket, 0);
    socket.once('close', () => inFlight.delete(socket));
  });
  // Requests that never reach the core (unparsable, too slow, CONNECT, Upgrade) get an error-shaped answer, then close.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') rawAnswer(socket, '408 Request Timeout', 'The request did not arrive in time: the connection is closed.');
    else if (err.code === 'HPE_HEADER_OVERFLOW') rawAnswer(socket, '400 Bad Request', 'The request headers are too large.');
    else rawAnswer(socket, '400 Bad Request', 'Malformed HTTP request.');
  });
  server.on('connect', (_req, socket: Duplex) => rawAnswer(socket, '400 Bad Request', 'CONNECT is not supported.'));
  server.on('upgrade', (_req, socket: Duplex) => rawAnswer(socket, '400 Bad Request', 'Protocol upgrades are not supported.'));

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
        // In-flight requests finish; idle keep-alive sockets close now, busy ones after their answer (or the grace).
        closing = true;
        server.close(() => {
          clearTimeout(grace);
          resolve();
        });
        for (const [socket, busy] of inFlight) if (busy === 0) socket.end();
        const grace = setTimeout(() => {
          for (const socket of inFlight.keys()) socket.destroy();
        }, CLOSE_GRACE_MS);
        grace.unref();
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

/**
 * On a loopback bind the control API answers requests addressed to a loopback name only: a page whose own name was
 * re-pointed at 127.0.0.1 (DNS rebinding) sends its own name in `Host` and is refused, although it is "same-origin".
 */
function rejectForeignHost(req: express.Request, res: express.Response, next: express.NextFunction): void {
  const hostHeader = req.get('host') ?? '';
  let hostname = '';
  try {
    hostname = new URL(`http://${hostHeader}`).hostname.replace(/^\[|\]$/g, '');
  } catch {
    hostname = '';
  }
  if (isLoopback(hostname)) return next();
  res.status(403).type('application/json; charset=utf-8').send(errorBody('insufficient_scope', 'The control API answers requests addressed to localhost or 127.0.0.1 only.'));
}

/** An answer written straight to the socket, for requests node's HTTP layer does not hand to a request handler. */
function rawAnswer(socket: Duplex, status: string, message: string): void {
  if (!socket.writable) return void socket.destroy();
  const body = errorBody('invalid_request', message);
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  // Read and drop what the client still sends (so the socket can finish closing), and never wait on it for long.
  socket.on('error', () => socket.destroy());
  socket.resume();
  setTimeout(() => socket.destroy(), RAW_ANSWER_LINGER_MS).unref();
}

const RAW_ANSWER_LINGER_MS = 2_000;
