/**
 * User handlers behind the API's routes (docs/decisions/user-handlers.md), for the three doors: msw's, `sandbox.fetch`
 * and the node server. msw is imported the first time a user handler is asked, never before: the user handlers are
 * msw's, so it is installed then, and `agent-work-sandbox/fetch` stays without msw until then.
 */
import type { RequestHandler } from 'msw';
import type { PlainResponse } from '../core/types.js';
import { ERRORS, errorBody, type ErrorCode } from '../rules/errors.js';
import { JSON_CONTENT_TYPE, REQUEST_ID_HEADER } from '../core/handle.js';

let msw: Promise<typeof import('msw')> | undefined;

/** Headers the door sets on a request it hands to user handlers (a client's own values are replaced). */
export const CALLER_HEADERS = {
  account: 'x-sandbox-account-id',
  key: 'x-sandbox-key-id',
  scopes: 'x-sandbox-scopes',
} as const;

/**
 * Runs a user's msw handlers on a request the API's routes did not match (it already passed the key and rate
 * checks). The caller is passed in `X-Sandbox-Account-Id`, `X-Sandbox-Key-Id` and `X-Sandbox-Scopes` (space-separated).
 * The answer gets the rate-limit headers; an error answer (≥ 400) whose body is not the error shape is put into it, and
 * a handler that throws answers 500 `internal_error`. No handler answering leaves the core's 404 `not_found`.
 */
export async function answerUnmatched(
  handlers: readonly RequestHandler[],
  request: {
    url: string;
    method: string;
    headers: Headers | Record<string, string | string[] | undefined>;
    body: string;
  },
  core: PlainResponse,
  baseUrl?: string,
): Promise<PlainResponse> {
  const unmatched = core.unmatched;
  if (!unmatched) return core; // the core matched a route: nothing for user handlers
  // The core's rate-limit headers and request id go on whatever answers instead.
  const rateHeaders = Object.fromEntries(
    Object.entries(core.headers).filter(([name]) => name.startsWith('X-RateLimit-') || name === REQUEST_ID_HEADER),
  );
  let answer: Response | undefined;
  try {
    const headers = new Headers();
    for (const [name, value] of request.headers instanceof Headers
      ? request.headers
      : Object.entries(request.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    headers.set(CALLER_HEADERS.account, unmatched.accountId);
    headers.set(CALLER_HEADERS.key, unmatched.keyId);
    headers.set(CALLER_HEADERS.scopes, unmatched.scopes.join(' '));
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    const forwarded = new Request(request.url, {
      method: request.method,
      headers,
      body: hasBody ? request.body : undefined,
    });
    const { getResponse } = await (msw ??= import('msw'));
    answer = await getResponse([...handlers], forwarded, baseUrl ? { baseUrl } : undefined);
  } catch {
    return settled(unmatched, core, {
      status: 500,
      headers: { 'Content-Type': JSON_CONTENT_TYPE, ...rateHeaders },
      body: errorBody('internal_error', ERRORS.internal_error.message),
      code: 'internal_error',
    });
  }
  if (!answer) {
    unmatched.record(core.status, 'not_found');
    return { ...core, unmatched: undefined };
  }
  if (answer.type === 'error') {
    unmatched.record(0, 'network_error');
    return { status: 0, headers: {}, body: '', networkError: true, delayMs: core.delayMs };
  }
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    if (!name.startsWith('x-ratelimit-') && name !== 'x-sandbox-request-id') out[name] = value;
  });
  let body = await answer.text();
  let code: string | null = null;
  if (answer.status >= 400) {
    code = errorCodeOf(body);
    if (code === null) {
      const fallback = codeForStatus(answer.status);
      body = errorBody(fallback, body.trim() === '' || body.length > 500 ? ERRORS[fallback].message : body.trim());
      code = fallback;
      delete out['content-type'];
      out['Content-Type'] = JSON_CONTENT_TYPE;
    }
  }
  return settled(unmatched, core, { status: answer.status, headers: { ...out, ...rateHeaders }, body, code });
}

/** The final answer of a request the user's handlers took, recorded in the journal; the core's delay still applies. */
function settled(
  unmatched: NonNullable<PlainResponse['unmatched']>,
  core: PlainResponse,
  final: { status: number; headers: Record<string, string>; body: string; code: string | null },
): PlainResponse {
  unmatched.record(final.status, final.code);
  return { status: final.status, headers: final.headers, body: final.body, delayMs: core.delayMs };
}

function errorCodeOf(body: string): string | null {
  try {
    const json = JSON.parse(body) as { error?: { code?: unknown; message?: unknown } } | null;
    return typeof json?.error?.code === 'string' && typeof json.error.message === 'string' ? json.error.code : null;
  } catch {
    return null;
  }
}

/** The catalogue's code for an HTTP status; otherwise `invalid_request` (4xx) or `internal_error` (5xx). */
function codeForStatus(status: number): ErrorCode {
  const known = (Object.keys(ERRORS) as ErrorCode[]).find(
    (c) => ERRORS[c].status === status && c !== 'missing_api_key',
  );
  return known ?? (status < 500 ? 'invalid_request' : 'internal_error');
}
