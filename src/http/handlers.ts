/**
 * The msw door: msw request handlers over the request core. Every msw-specific call lives in this file, so that
 * supporting another msw major is a change here only.
 */
import { delay, http, HttpResponse, type RequestHandler } from 'msw';
import type { PlainRequest, PlainResponse } from '../core/types.js';
import { ERRORS, errorBody } from '../rules/errors.js';

export const IN_PROCESS_CLIENT = 'in-process';

/**
 * Handlers for `{baseUrl}/*` (default: any origin, path `/api/v1/*`).
 */
export function createHandlers(handle: (req: PlainRequest) => PlainResponse, baseUrl?: string): RequestHandler[] {
  const base = baseUrl ? baseUrl.replace(/\/+$/, '') : undefined;
  const basePath = base ? new URL(base).pathname.replace(/\/+$/, '') : '/api/v1';
  const pattern = base ? `${base}/*` : `*${basePath}/*`;
  return [
    http.all(pattern, async ({ request }) => {
      const url = new URL(request.url);
      const at = url.pathname.indexOf(`${basePath}/`);
      const body = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
      let res: PlainResponse;
      try {
        res = handle({
          method: request.method,
          path: url.pathname.slice(at + basePath.length),
          query: url.search.slice(1),
          header: (name) => request.headers.get(name) ?? undefined,
          body,
          clientId: IN_PROCESS_CLIENT,
        });
      } catch {
        // msw would answer a thrown error with its stack: answer in the error shape instead, like the node door.
        res = { status: 500, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: errorBody('internal_error', ERRORS.internal_error.message) };
      }
      if (res.delayMs) await delay(res.delayMs);
      if (res.networkError) return HttpResponse.error();
      return new HttpResponse(res.body === '' ? null : res.body, { status: res.status, headers: res.headers });
    }),
  ];
}
