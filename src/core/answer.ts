import type { Account, ApiKey } from '../model/types.js';
import type { Effects } from '../rules/effects.js';
import { ApiError, errorBody } from '../rules/errors.js';
import { WINDOW_MS, type RateDecision, type RateState } from '../rules/rate-limit.js';
import type { Engine } from './engine.js';
import { maskKeys } from './mask.js';
import { requestId } from './journal.js';
import type { Reply } from './routes.js';
import { addStep, traceHeader, type RawTrace } from './trace.js';
import type { PlainRequest, PlainResponse } from './types.js';
import type { EntryFacts } from './journal.js';

/** How every answer of the request core ends (src/core/handle.ts): its common headers, the journal, the audit. */

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The header naming the journal entry of an answer (`req_…`). */
export const REQUEST_ID_HEADER = 'X-Sandbox-Request-Id';

/** `X-Sandbox-Explain` values that ask for the trace header (case-insensitive). */
const EXPLAIN_ON = /^\s*(1|true|yes)\s*$/i;

function wantsTrace(value: string | undefined): boolean {
  return value !== undefined && EXPLAIN_ON.test(value);
}

/** What the checks learned about a request, for the journal and the answer: one object a request. */
export interface Caller {
  /** The request's count: its journal id (read once: a handler of the user's own may answer after later requests). */
  id: number;
  key: ApiKey | undefined;
  account: Account | undefined;
  scenarios: string[];
  /** The decision trace, as tuples (formatted when read). */
  trace: RawTrace;
  rate: RateDecision | undefined;
  effects: Effects;
}

/** One request in flight: the sandbox, the request, its time, and what the checks learned about it. */
export interface Exchange {
  engine: Engine;
  req: PlainRequest;
  now: number;
  caller: Caller;
}

export function errorReply(error: unknown): Reply {
  // Anything that is not an ApiError is a bug of ours: answer 500 in the error shape, never a stack trace.
  const e = error instanceof ApiError ? error : new ApiError('internal_error');
  // An error message may echo what the client sent (a path, an id, a method): keys in it are masked.
  return { status: e.status, body: errorBody(e.code, maskKeys(e.message)), headers: e.headers, code: e.code };
}

/** The one place every answer passes: content type, the rate-limit headers, the journal. */
export function answer(x: Exchange, reply: Reply, journal = true): PlainResponse {
  const { engine, req, caller, now } = x;
  const r: RateState = caller.rate ?? {
    limit: engine.anonymousRpm,
    remaining: engine.anonymousRpm,
    resetAt: now + WINDOW_MS,
  };
  const headers: Record<string, string> = {
    'Content-Type': JSON_CONTENT_TYPE,
    'X-RateLimit-Limit': limitText(r.limit),
    'X-RateLimit-Remaining': String(r.remaining),
    'X-RateLimit-Reset': isoOf(r.resetAt),
  };
  if (reply.headers) Object.assign(headers, reply.headers);
  // The journal's id of this request, on every answer: a client's logs name the entry that explains it.
  headers[REQUEST_ID_HEADER] = requestId(caller.id);
  if (journal) addStep(caller.trace, 'answer', reply.status < 400 ? 'pass' : 'fail', reply.status, reply.code ?? null);
  if (wantsTrace(req.header('x-sandbox-explain'))) headers['X-Sandbox-Trace'] = traceHeader(caller.trace);
  const response: PlainResponse = { status: reply.status, headers, body: reply.body };
  // The delay is part of the answer the client sees: set before the journal and the audit look at it.
  if (caller.effects.latencyMs) response.delayMs = caller.effects.latencyMs;
  if (journal) record(x, reply.status, reply.code ?? null, response);
  return response;
}

// The limit is the same from one request to the next: its text is kept, as the window's end is.
let lastLimit = NaN;
let lastLimitText = '';
function limitText(limit: number): string {
  if (limit !== lastLimit) {
    lastLimitText = String(limit);
    lastLimit = limit;
  }
  return lastLimitText;
}

// The window's end changes once a minute: format it once, not per request (the profile's top core cost).
let lastResetAt = NaN;
let lastResetIso = '';
function isoOf(resetAt: number): string {
  if (resetAt !== lastResetAt) {
    lastResetIso = new Date(resetAt).toISOString();
    lastResetAt = resetAt;
  }
  return lastResetIso;
}

export function answerNetworkError(x: Exchange): PlainResponse {
  addStep(x.caller.trace, 'answer', 'fail', 0, 'network_error');
  const response: PlainResponse = { status: 0, headers: {}, body: '', networkError: true };
  if (x.caller.effects.latencyMs) response.delayMs = x.caller.effects.latencyMs;
  record(x, 0, 'network_error', response);
  return response;
}

/** The request's entry in the journal, and what the audit makes of it. */
export function record(x: Exchange, status: number, code: string | null, response?: PlainResponse): void {
  const { engine, req, caller, now } = x;
  const facts: EntryFacts = {
    id: caller.id,
    at: now,
    basePath: engine.basePath,
    status,
    code,
    keyId: caller.key?.id ?? null,
    accountId: caller.account?.id ?? null,
    scenarios: caller.scenarios,
    trace: caller.trace,
  };
  engine.journal.record(facts, req, response);
  engine.audit?.observe(facts, req, response);
}
