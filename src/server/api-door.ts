import { Buffer } from 'node:buffer';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { PlainRequest, PlainResponse } from '../core/types.js';
import { MAX_BODY_BYTES } from '../rules/task-body.js';
import type { SandboxCore as Sandbox } from '../sandbox-types.js';
import type { RequestHandler } from 'msw';

const INTERNAL_ERROR: PlainResponse = {
  status: 500,
  headers: { 'Content-Type': 'application/json; charset=utf-8' },
  body: '{"error":{"code":"internal_error","message":"Internal server error."}}',
};

/** A node request as the core reads it: one plain object a request, its header lookup a shared method. */
interface NodeRequest extends PlainRequest {
  headers: IncomingHttpHeaders;
}

function nodeHeader(this: NodeRequest, name: string): string | undefined {
  const value = this.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** What one door answers with: the sandbox, its base path and what the server around it adds. */
interface Door {
  sandbox: Sandbox;
  basePath: string;
  isClosing: () => boolean;
  handlers: readonly RequestHandler[];
  leading: readonly string[];
  /** msw is loaded only for a server with handlers of the user's own (it would add to every cold start). */
  userDoor: Promise<typeof import('../http/unmatched.js')> | undefined;
  /** Told once the answer is handed to node (or the response was already gone): see `createApiDoor`. */
  written: ((res: ServerResponse) => void) | undefined;
}

/** How a server sets up its door: everything but the sandbox is optional. */
export interface ApiDoorOptions {
  /** Tells whether the server is closing: answers then carry `Connection: close`. */
  isClosing?: () => boolean;
  /** The user's own msw handlers, asked for what the API's routes do not match. */
  handlers?: readonly RequestHandler[];
  /** Headers every answer starts with (a flat name, value list: the CORS headers). */
  leadingHeaders?: readonly string[];
  /** Told once the answer is handed to node (or the response was already gone). */
  written?: (res: ServerResponse) => void;
}

/**
 * The node door onto the request core for `{basePath}/…`: no framework on this path, only body reading with the
 * 1 MiB limit and the plain response written out. `written` is called once per request, after its answer went to
 * node (`res.end`) or when the response was already destroyed: the server's in-flight count, without a `close`
 * listener a request.
 */
export function createApiDoor(sandbox: Sandbox, options: ApiDoorOptions = {}) {
  const handlers = options.handlers ?? [];
  const door: Door = {
    sandbox,
    basePath: sandbox.basePath,
    isClosing: options.isClosing ?? (() => false),
    handlers,
    leading: options.leadingHeaders ?? [],
    userDoor: handlers.length > 0 ? import('../http/unmatched.js') : undefined,
    written: options.written,
  };
  return function apiDoor(req: IncomingMessage, res: ServerResponse): void {
    // A request with no body framing has no body: answer at once.
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      answer(door, req, res, '');
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      const [first] = chunks;
      const bytes = chunks.length === 1 && first ? first : Buffer.concat(chunks);
      answer(door, req, res, size > MAX_BODY_BYTES ? null : bytes.toString('utf8'));
    });
    req.on('error', () => req.socket.destroy());
  };
}

/** `body` null: a body over the limit, left unread (the core answers 413). */
function answer(door: Door, req: IncomingMessage, res: ServerResponse, body: string | null): void {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const method = req.method ?? 'GET';
  let out: PlainResponse;
  try {
    const request: NodeRequest = {
      method,
      path: (q === -1 ? url : url.slice(0, q)).slice(door.basePath.length),
      query: q === -1 ? '' : url.slice(q + 1),
      headers: req.headers,
      body: body ?? '',
      bodyTooLarge: body === null,
      clientId: req.socket.remoteAddress ?? 'unknown',
      passUnmatched: door.handlers.length > 0,
      header: nodeHeader,
    };
    out = door.sandbox.handle(request);
  } catch {
    out = INTERNAL_ERROR;
  }
  if (out.unmatched && door.userDoor) {
    const origin = `http://${req.headers.host ?? 'localhost'}`;
    const core = out;
    door.userDoor
      .then(({ answerUnmatched }) =>
        answerUnmatched(
          door.handlers,
          { url: new URL(url, origin).href, method, headers: req.headers, body: body ?? '' },
          core,
          origin,
        ),
      )
      .then(
        (answered) => send(door, req, res, answered),
        () => send(door, req, res, INTERNAL_ERROR),
      );
  } else {
    send(door, req, res, out);
  }
}

function send(door: Door, req: IncomingMessage, res: ServerResponse, out: PlainResponse): void {
  if (out.delayMs) setTimeout(() => sendNow(door, req, res, out), out.delayMs);
  else sendNow(door, req, res, out);
}

function sendNow(door: Door, req: IncomingMessage, res: ServerResponse, out: PlainResponse): void {
  write(door, req, res, out);
  door.written?.(res);
}

/**
 * Bodies from 1 KiB to 64 KiB are written as bytes, kept for the next answer with the same text (an agent page, a
 * finished task polled): no encoding, no length count, no copy of the head and body into one string per answer.
 */
const KEPT_BYTES_MIN_LENGTH = 1024;
const KEPT_BYTES_MAX_LENGTH = 64 * 1024;
const KEPT_BYTES_MAX_ENTRIES = 32;
const keptBytes = new Map<string, { bytes: Buffer; length: string }>();

/** The body as bytes and its Content-Length: encoded once for a long body answered again (a cached page, a task). */
function encoded(body: string): { bytes: Buffer | string; length: string } {
  if (body.length < KEPT_BYTES_MIN_LENGTH || body.length > KEPT_BYTES_MAX_LENGTH)
    return { bytes: body, length: String(Buffer.byteLength(body)) };
  let kept = keptBytes.get(body);
  if (kept === undefined) {
    const bytes = Buffer.from(body, 'utf8');
    kept = { bytes, length: String(bytes.length) };
    if (keptBytes.size >= KEPT_BYTES_MAX_ENTRIES) keptBytes.clear();
    keptBytes.set(body, kept);
  }
  return kept;
}

/** Responses the door reset on purpose (`network-error`): the request log tells them from a client that went away. */
export const networkErrors = new WeakSet<ServerResponse>();

/**
 * Writes an answer with one `writeHead` of a flat header list (`leading` first, e.g. the CORS headers, then the
 * core's, then `Content-Length`): node then skips its per-header bookkeeping (`setHeader` keeps a map per response).
 */
function write(door: Door, req: IncomingMessage, res: ServerResponse, out: PlainResponse): void {
  if (res.destroyed) return;
  if (out.networkError) {
    // A TCP reset (node ≥ 16.17), the way a failing network looks to the client.
    networkErrors.add(res);
    req.socket.resetAndDestroy();
    return;
  }
  const raw = door.leading.slice();
  const headers = out.headers;
  // The length is the body's (an answer of a user's handler may carry its own header for it).
  for (const name in headers)
    if (name.length !== 14 || name.toLowerCase() !== 'content-length') raw.push(name, headers[name] as string);
  if (door.isClosing()) raw.push('Connection', 'close');
  const { bytes, length } = encoded(out.body);
  raw.push('Content-Length', length);
  res.writeHead(out.status, raw);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}
