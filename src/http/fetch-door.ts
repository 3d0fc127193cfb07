/**
 * `sandbox.fetch`: a standard `fetch` (`(input, init) => Promise<Response>`) that answers from the request core
 * directly, without msw's interception or any global patching, for clients that take a custom fetch (openapi-fetch,
 * ky, generated SDKs) and for tests. The same answers as the msw door, byte for byte (same core, same response).
 */
import type { RequestHandler } from 'msw';
import type { PlainRequest, PlainResponse } from '../core/types.js';
import { INTERNAL_ERROR, IN_PROCESS_CLIENT } from './door-common.js';
import { answerUnmatched } from './unmatched.js';

export type SandboxFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * The platform's own `Response`, taken when this module loads. msw's node interceptors, once a `setupServer` listens,
 * swap `globalThis.Response` for a Proxy that records every response's raw headers (for their `http.ClientRequest`
 * door, which a `sandbox.fetch` answer never reaches): that makes building a Response 1.5–2 times as costly. An
 * instance of this class is still `instanceof` the global one, patched or not (the Proxy shares its prototype).
 */
const NativeResponse = globalThis.Response;

/** Statuses whose Response may not carry a body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** Headers by lower-case name: a plain object is read as is (no Headers object built per call). */
function headerLookup(given: HeadersInit | undefined): Pick<Headers, 'get'> {
  if (given === undefined || given instanceof Headers || Array.isArray(given)) return new Headers(given);
  const byName = new Map<string, string>();
  for (const name in given) byName.set(name.toLowerCase(), String(given[name]));
  return { get: (name) => byName.get(name) ?? null };
}

/** Waits out an answer's delay; a client that gives up first (its signal aborts) is told at once, as fetch does. */
function delayUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export function createFetch(
  handle: (req: PlainRequest) => PlainResponse,
  baseUrl?: string,
  userHandlers: readonly RequestHandler[] = [],
): SandboxFetch {
  const base = baseUrl ? baseUrl.replace(/\/+$/, '') : undefined;
  const basePath = base ? new URL(base).pathname.replace(/\/+$/, '') : '/api/v1';

  /** The path below the base path, or undefined when the URL is not one the sandbox serves. */
  const below = (url: URL): string | undefined => {
    if (base) return url.href.startsWith(`${base}/`) ? url.pathname.slice(basePath.length) : undefined;
    const at = url.pathname.indexOf(`${basePath}/`);
    return at === -1 ? undefined : url.pathname.slice(at + basePath.length);
  };

  return async function sandboxFetch(input, init) {
    // Fast path: a URL and plain init (string body, headers as an object or Headers); anything else goes through Request.
    const plain =
      !(input instanceof Request) && (init?.body === undefined || init.body === null || typeof init.body === 'string');
    // A Request given alone (as openapi-fetch and ky call fetch) is read as it is: a copy costs more than the
    // sandbox's answer (far more with a body), and reading its body uses it up just as fetch's copy does.
    const request = plain
      ? undefined
      : input instanceof Request && init === undefined
        ? input
        : new Request(input, init);
    const signal = request?.signal ?? init?.signal ?? undefined;
    signal?.throwIfAborted();
    const url = new URL(request ? request.url : input instanceof URL ? input.href : (input as string)); // not a Request: plain goes with a string or URL
    const method = (request?.method ?? init?.method ?? 'GET').toUpperCase();
    const headers = request ? request.headers : headerLookup(init?.headers);
    const body = request
      ? method === 'GET' || method === 'HEAD'
        ? ''
        : await request.text()
      : ((init?.body as string | null | undefined) ?? '');
    const path = below(url);
    if (path === undefined) {
      throw new TypeError(
        `sandbox.fetch: ${url.href} is not below the sandbox's base URL (${base ?? `any origin + ${basePath}/`}).`,
      );
    }
    let res: PlainResponse;
    try {
      res = handle({
        method,
        path,
        query: url.search.slice(1),
        header: (name) => headers.get(name) ?? undefined,
        // For the journal (read only when it is read): what the client sent, as the other doors keep it.
        headers: headers instanceof Headers ? headers : (init?.headers as Record<string, string>),
        body,
        clientId: IN_PROCESS_CLIENT,
        passUnmatched: userHandlers.length > 0,
      });
    } catch {
      res = INTERNAL_ERROR;
    }
    if (res.unmatched)
      res = await answerUnmatched(
        userHandlers,
        { url: url.href, method, headers: headers instanceof Headers ? headers : new Headers(init?.headers), body },
        res,
      );
    if (res.delayMs) await delayUnlessAborted(res.delayMs, signal);
    signal?.throwIfAborted();
    // A failed connection, as fetch reports one.
    if (res.networkError)
      throw new TypeError('Failed to fetch', { cause: new Error('sandbox: network-error scenario') });
    const noBody = method === 'HEAD' || res.body === '' || NULL_BODY.has(res.status);
    return new NativeResponse(noBody ? null : res.body, { status: res.status, headers: res.headers });
  };
}
