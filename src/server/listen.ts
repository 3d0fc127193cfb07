import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { SlowPathOptions, SlowPaths } from './app.js';
import { isLoopback } from './loopback.js';
import { ERRORS, errorBody } from '../rules/errors.js';
import type { ListenOptions, RunningServer, SandboxCore as Sandbox } from '../sandbox-types.js';
import { JSON_CONTENT_TYPE } from '../core/handle.js';
import { createApiDoor } from './api-door.js';
import { API_CORS_OPTIONS } from './cors-options.js';
import { onAnswer, type StateFileStatus } from './durable-state.js';
import { addUrlGuard, type UrlGuard } from '../webhooks/url-guard.js';

export const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** After `close()`, how long requests still in flight may take before their sockets are cut. */
const CLOSE_GRACE_MS = 10_000;

/** What `cors` sets on an API answer that is not a preflight (origin '*'): set directly, once per request. */
const API_CORS_ORIGIN = '*';
const API_CORS_EXPOSED = API_CORS_OPTIONS.exposedHeaders.join(',');

export { isLoopback };

export interface SandboxServer extends RunningServer {
  /** The token the control API asks for, when one is needed. */
  controlToken: string | undefined;
  host: string;
  /** The node:http server (the CLI's request log listens to its `request` events). */
  httpServer: Server;
}

/**
 * Serves a sandbox over HTTP: `{basePath}/…` through the request core with no framework on the hot path, the control
 * API and everything else through express.
 */
export interface ServerOptions extends ListenOptions {
  /** Called just before every answer's head is written (the CLI's durable `--state` saves there); none: no cost. */
  beforeAnswer?: (req: IncomingMessage, res: ServerResponse) => Error | undefined;
  /** How the state file's saves go (the CLI's `--state`): shown in the overview and the inspector. */
  stateFileStatus?: () => StateFileStatus;
}

export async function listen(sandbox: Sandbox, options: ServerOptions = {}): Promise<SandboxServer> {
  const host = options.host ?? DEFAULT_HOST;
  // node:crypto only when a token is made (an exposed host): a loopback start does not load it.
  const controlToken =
    options.controlToken ??
    (isLoopback(host) ? undefined : (await import('node:crypto')).randomBytes(18).toString('base64url'));
  const basePath = sandbox.basePath;
  const beforeAnswer = options.beforeAnswer;
  let closing = false;
  const inFlight = new Map<Socket, number>();
  const answered = answerTracker(inFlight, () => closing);
  const { apiDoor, preflightDoor } = apiDoors(sandbox, () => closing, options.handlers, answered);

  const { viaSlow, preload } = slowPathLoader(sandbox, {
    controlToken,
    loopback: isLoopback(host),
    stateFileStatus: options.stateFileStatus,
  });
  const [apiPrefix, apiQuery] = [`${basePath}/`, `${basePath}?`];

  const server = createServer(serverTimeouts(options), (req: IncomingMessage, res: ServerResponse) => {
    // Sockets are tracked by their unanswered requests, so that closing waits for answers still to be written
    // (node's own idea of an idle connection counts a request as done once it has been read).
    const socket = req.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    if (closing) res.setHeader('Connection', 'close');
    if (beforeAnswer) onAnswer(req, res, beforeAnswer);
    const url = req.url ?? '/';
    if (url.startsWith(apiPrefix) || url === basePath || url.startsWith(apiQuery)) {
      // A CORS preflight (an Origin and Access-Control-Request-Method) is answered by `cors`; any other OPTIONS is an
      // API request like the rest, with the rate-limit headers.
      if (
        req.method === 'OPTIONS' &&
        req.headers.origin !== undefined &&
        req.headers['access-control-request-method'] !== undefined
      ) {
        res.on('close', answered);
        return viaSlow(req, res, (s) => s.apiCors(req, res, () => preflightDoor(req, res)));
      }
      // The door tells when its answer is written (no `close` listener a request on the hot path).
      apiDoor(req, res);
    } else {
      res.on('close', answered);
      viaSlow(req, res, (s) => s.app(req, res));
    }
  });
  server.on('connection', (socket: Socket) => {
    inFlight.set(socket, 0);
    socket.once('close', () => inFlight.delete(socket));
  });
  answerUnhandled(server);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Preloaded shortly after, so that the first request to the API is not queued behind compiling express.
  setTimeout(preload, 250).unref();
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  const unguard = addUrlGuard(sandbox.webhooks, selfGuard(host, port, basePath));
  return {
    url: `http://${urlHost}:${port}`,
    port,
    host,
    controlToken,
    httpServer: server,
    close: () => {
      closing = true;
      unguard();
      return closeGracefully(server, inFlight);
    },
  };
}

/**
 * The `close` listener of every answer, one for all (no closure a request; `res.req.socket` is the request's socket):
 * the socket has one unanswered request less, and a closing server ends it once it has none.
 */
function answerTracker(inFlight: Map<Socket, number>, isClosing: () => boolean) {
  return function answered(this: ServerResponse): void {
    const socket = this.req.socket;
    const busy = (inFlight.get(socket) ?? 1) - 1;
    if (inFlight.has(socket)) inFlight.set(socket, busy);
    if (isClosing() && busy === 0) socket.end();
  };
}

/** The API door, and the same behind `cors` (which may answer itself: counted by the response's `close`). */
function apiDoors(
  sandbox: Sandbox,
  isClosing: () => boolean,
  handlers: ListenOptions['handlers'],
  answered: (this: ServerResponse) => void,
) {
  // The two CORS headers of an API answer go into the door's single writeHead.
  const door = (written?: (res: ServerResponse) => void) =>
    createApiDoor(sandbox, {
      isClosing,
      handlers,
      leadingHeaders: [
        'Access-Control-Allow-Origin',
        API_CORS_ORIGIN,
        'Access-Control-Expose-Headers',
        API_CORS_EXPOSED,
      ],
      written,
    });
  return { apiDoor: door(apiAnswered(answered, isClosing)), preflightDoor: door() };
}

/**
 * The door's `written`: an answer handed to a socket of its own (`res.socket` set: not one queued behind an earlier
 * pipelined answer) is in that socket's buffer, which `socket.end()` flushes first, so the socket has one unanswered
 * request less now, as it has when the response is gone; a queued one, or any while the server closes, counts down
 * on its `close`, as the slow paths do.
 */
function apiAnswered(answered: (this: ServerResponse) => void, isClosing: () => boolean) {
  return function written(res: ServerResponse): void {
    if ((res.socket !== null || res.destroyed) && !isClosing()) answered.call(res);
    else res.on('close', answered);
  };
}

/**
 * Express (control API, preflights, everything off the API) loads after the socket listens: it is most of the
 * start-up time, and the API's hot path does not use it. `viaSlow` hands a request to it once loaded.
 */
function slowPathLoader(sandbox: Sandbox, access: SlowPathOptions) {
  let slow: SlowPaths | undefined;
  let loading: Promise<SlowPaths> | undefined;
  const slowPaths = (): Promise<SlowPaths> =>
    (loading ??= import('./app.js').then((m) => (slow = m.createSlowPaths(sandbox, access))));
  const viaSlow = (req: IncomingMessage, res: ServerResponse, use: (s: SlowPaths) => void): void => {
    if (slow) return use(slow);
    slowPaths().then(use, () => {
      res.statusCode = 500;
      res.setHeader('Content-Type', JSON_CONTENT_TYPE);
      res.end(errorBody('internal_error', ERRORS.internal_error.message));
    });
  };
  const preload = (): void => void slowPaths().catch(() => undefined);
  return { viaSlow, preload };
}

/**
 * Slow clients (slowloris) are cut off instead of holding sockets forever; node checks the deadlines every
 * `connectionsCheckingInterval` ms, so that follows the shortest timeout.
 */
function serverTimeouts(options: ServerOptions): {
  headersTimeout: number;
  requestTimeout: number;
  connectionsCheckingInterval: number;
} {
  const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const headersTimeout = Math.min(options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS, requestTimeout);
  const connectionsCheckingInterval = Math.max(50, Math.min(30_000, Math.floor(headersTimeout / 4)));
  return { headersTimeout, requestTimeout, connectionsCheckingInterval };
}

/** Requests that never reach the core (unparsable, too slow, CONNECT, Upgrade) get an error-shaped answer, then close. */
function answerUnhandled(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
      rawAnswer(socket, '408 Request Timeout', 'The request did not arrive in time: the connection is closed.');
    else if (err.code === 'HPE_HEADER_OVERFLOW')
      rawAnswer(socket, '400 Bad Request', 'The request headers are too large.');
    else rawAnswer(socket, '400 Bad Request', 'Malformed HTTP request.');
  });
  server.on('connect', (_req, socket: Duplex) => rawAnswer(socket, '400 Bad Request', 'CONNECT is not supported.'));
  server.on('upgrade', (_req, socket: Duplex) =>
    rawAnswer(socket, '400 Bad Request', 'Protocol upgrades are not supported.'),
  );
}

/** In-flight requests finish; idle keep-alive sockets close now, busy ones after their answer (or the grace). */
function closeGracefully(server: Server, inFlight: ReadonlyMap<Socket, number>): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => {
      clearTimeout(grace);
      resolve();
    });
    for (const [socket, busy] of inFlight) if (busy === 0) socket.end();
    const grace = setTimeout(() => {
      for (const socket of inFlight.keys()) socket.destroy();
    }, CLOSE_GRACE_MS);
    grace.unref();
  });
}

/** An answer written straight to the socket, for requests node's HTTP layer does not hand to a request handler. */
function rawAnswer(socket: Duplex, status: string, message: string): void {
  if (!socket.writable) return void socket.destroy();
  const body = errorBody('invalid_request', message);
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: ${JSON_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  // Read and drop what the client still sends (so the socket can finish closing), and never wait on it for long.
  socket.on('error', () => socket.destroy());
  socket.resume();
  setTimeout(() => socket.destroy(), RAW_ANSWER_LINGER_MS).unref();
}

const RAW_ANSWER_LINGER_MS = 2_000;

/**
 * Webhook URLs that would reach this listener outside the API (its control API, its inspector): refused. "This
 * listener" is the port, on a loopback name, an any-address, or the host it is bound to. (A DNS name that resolves here
 * is not seen here; the control API refuses the sandbox's own webhook messages by their User-Agent as well.)
 */
function selfGuard(host: string, port: number, basePath: string): UrlGuard {
  return (url) => {
    const urlPort = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    if (urlPort !== port) return undefined;
    const name = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (!(isLoopback(name) || name === '0.0.0.0' || name === '::' || name === host.toLowerCase())) return undefined;
    if (url.pathname.startsWith(`${basePath}/`)) return undefined;
    return `${url.href} is this sandbox's own server (its control API or inspector): a webhook there would act on the sandbox itself. Point webhooks at a receiver of your own.`;
  };
}
