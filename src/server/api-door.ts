import { Buffer } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PlainResponse } from '../core/types.js';
import { MAX_BODY_BYTES } from '../rules/task-body.js';
import type { SandboxCore as Sandbox } from '../sandbox-types.js';
import type { RequestHandler } from 'msw';

const INTERNAL_ERROR: PlainResponse = {
  status: 500,
  headers: { 'Content-Type': 'application/json; charset=utf-8' },
  body: '{"error":{"code":"internal_error","message":"Internal server error."}}',
};

/**
 * The node door onto the request core for `{basePath}/…`: no framework on this path, only body reading with the
 * 1 MiB limit and the plain response written out.
 */
export function createApiDoor(
  sandbox: Sandbox,
  basePath: string,
  isClosing: () => boolean = () => false,
  handlers: readonly RequestHandler[] = [],
  leadingHeaders: readonly string[] = [],
) {
  // msw is loaded only for a server with handlers of the user's own (it would add to every cold start).
  const userDoor = handlers.length > 0 ? import('../http/handlers.js') : undefined;
  return function apiDoor(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    const run = (body: string, bodyTooLarge: boolean) => {
      let out: PlainResponse;
      try {
        out = sandbox.handle({
          method: req.method ?? 'GET',
          path: pathname.slice(basePath.length),
          query: q === -1 ? '' : url.slice(q + 1),
          header: (name) => headerValue(req.headers[name]),
          headers: req.headers,
          body,
          bodyTooLarge,
          clientId: req.socket.remoteAddress ?? 'unknown',
          passUnmatched: handlers.length > 0,
        });
      } catch {
        out = INTERNAL_ERROR;
      }
      if (out.unmatched) {
        const origin = `http://${req.headers.host ?? 'localhost'}`;
        const core = out;
        userDoor!
          .then(({ answerUnmatched }) =>
            answerUnmatched(
              handlers,
              { url: new URL(url, origin).href, method: req.method ?? 'GET', headers: req.headers, body },
              core,
              origin,
            ),
          )
          .then(send, () => send(INTERNAL_ERROR));
      } else {
        send(out);
      }
    };
    const send = (out: PlainResponse) => {
      if (out.delayMs) setTimeout(() => write(req, res, out, isClosing(), leadingHeaders), out.delayMs);
      else write(req, res, out, isClosing(), leadingHeaders);
    };
    // A request with no body framing has no body: answer at once.
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      run('', false);
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    req.on('end', () => run(tooLarge ? '' : Buffer.concat(chunks).toString('utf8'), tooLarge));
    req.on('error', () => req.socket.destroy());
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Writes an answer with one `writeHead` of a flat header list (`leading` first, e.g. the CORS headers, then the
 * core's, then `Content-Length`): node then skips its per-header bookkeeping (`setHeader` keeps a map per response).
 */
function write(
  req: IncomingMessage,
  res: ServerResponse,
  out: PlainResponse,
  closing: boolean,
  leading: readonly string[],
): void {
  if (res.destroyed) return;
  if (out.networkError) {
    const socket = req.socket as typeof req.socket & { resetAndDestroy?: () => void };
    if (socket.resetAndDestroy) socket.resetAndDestroy();
    else socket.destroy();
    return;
  }
  const raw = leading.slice();
  // The length is the body's (an answer of a user's handler may carry its own header for it).
  for (const name in out.headers)
    if (name.length !== 14 || name.toLowerCase() !== 'content-length') raw.push(name, out.headers[name]!);
  if (closing) raw.push('Connection', 'close');
  raw.push('Content-Length', String(Buffer.byteLength(out.body)));
  res.writeHead(out.status, raw);
  res.end(req.method === 'HEAD' ? undefined : out.body);
}
