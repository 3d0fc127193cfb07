/**
 * The msw door: msw request handlers over the request core. Every msw-specific call lives in this file and in
 * `unmatched.ts` (msw's `getResponse`, for user handlers), so that supporting another msw major is a change there only.
 */
import { delay, http, HttpResponse, type RequestHandler } from 'msw';
import type { PlainRequest, PlainResponse } from '../core/types.js';
import { INTERNAL_ERROR, IN_PROCESS_CLIENT } from './door-common.js';
import { answerUnmatched } from './unmatched.js';

/**
 * Handlers for `{baseUrl}/*` (default: any origin, path `/api/v1/*`). With `userHandlers`, a request no route of the
 * API matches goes to them after the key and rate checks (see `answerUnmatched`).
 */
export function createHandlers(
  handle: (req: PlainRequest) => PlainResponse,
  baseUrl?: string,
  userHandlers: readonly RequestHandler[] = [],
): RequestHandler[] {
  const base = baseUrl ? baseUrl.replace(/\/+$/, '') : undefined;
  const basePath = base ? new URL(base).pathname.replace(/\/+$/, '') : '/api/v1';
  const pattern = base ? `${base}/*` : `*${basePath}/*`;
  return [
    http.all(pattern, async ({ request }) => {
      const url = new URL(request.url);
      const at = url.pathname.indexOf(`${basePath}/`);
      const body = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
      let res: PlainResponse;
      // The journal keeps the request it is handed, for its last 1,000 requests: the headers alone, not msw's Request
      // (its body stream, signal and listeners: several times the size of the headers alone). No closure reads `request`.
      const headers = request.headers;
      try {
        res = handle({
          method: request.method,
          path: url.pathname.slice(at + basePath.length),
          query: url.search.slice(1),
          header: (name) => headers.get(name) ?? undefined,
          headers,
          body,
          clientId: IN_PROCESS_CLIENT,
          passUnmatched: userHandlers.length > 0,
        });
      } catch {
        // msw would answer a thrown error with its stack: answer in the error shape instead, like the node door.
        res = { ...INTERNAL_ERROR, headers: { ...INTERNAL_ERROR.headers } };
      }
      if (res.unmatched)
        res = await answerUnmatched(
          userHandlers,
          { url: request.url, method: request.method, headers: request.headers, body },
          res,
        );
      if (res.delayMs) await delay(res.delayMs);
      if (res.networkError) return HttpResponse.error();
      return new HttpResponse(res.body === '' || request.method === 'HEAD' ? null : res.body, {
        status: res.status,
        headers: res.headers,
      });
    }),
  ];
}
