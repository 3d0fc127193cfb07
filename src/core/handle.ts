import { PLANS } from '../model/plans.js';
import type { Account, ApiKey } from '../model/types.js';
import { limitsOf, syncPeriod } from '../rules/accounts.js';
import { readBearerKey } from '../rules/auth.js';
import { NO_EFFECTS, type Effects } from '../rules/effects.js';
import { ApiError, errorBody } from '../rules/errors.js';
import { currentWindow, takeRequest, WINDOW_MS, type RateDecision, type RateState } from '../rules/rate-limit.js';
import { grants } from '../rules/scopes.js';
import { settleDue } from '../rules/tasks.js';
import type { Engine } from './engine.js';
import { dropEndedWindows, effectOf, MAX_ANONYMOUS_BUCKETS, rateLimited, readOnly, scenarioHeader } from './guards.js';
import { maskKey, maskKeys } from './mask.js';
import { matchRoute, type Reply } from './routes.js';
import { addStep, lastFailed, traceHeader, type RawTrace } from './trace.js';
import type { PlainRequest, PlainResponse } from './types.js';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** What the guards learned about the caller, for the journal. */
interface Caller {
  key?: ApiKey;
  account?: Account;
  scenarios: string[];
  /** The decision trace, as tuples (formatted when read). */
  trace: RawTrace;
}

/**
 * The request core: a plain request in, a plain response out. Runs the checks in the order of README.md, "Errors"
 * (key → rate → route → scope → body → resource → money and tokens), then the route; every answer, error or not,
 * leaves through `finish`, which sets the rate-limit headers.
 */
export function handle(engine: Engine, req: PlainRequest): PlainResponse {
  const now = engine.clock.now();
  engine.requestSeq += 1;
  const trace: RawTrace = [];
  const caller: Caller = { scenarios: [], trace };
  let rate: RateDecision | undefined;
  let effects: Effects = NO_EFFECTS;
  let reply: Reply;
  try {
    // An unknown X-Sandbox-Scenario name is a 400 answered after the key and rate checks: the request still counts.
    let headerError: ApiError | undefined;
    let fromHeader: string[] = [];
    try {
      fromHeader = scenarioHeader(req.header('x-sandbox-scenario'));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      headerError = error;
    }

    // 1. Key: read it, look it up (O(1)), resolve the scenarios that apply to it.
    let keyError: ApiError | undefined;
    let key: ApiKey | undefined;
    let keyText: string | undefined;
    try {
      keyText = readBearerKey(req.header('authorization'));
      key = engine.state.keys.get(keyText);
      if (!key || key.revoked) throw new ApiError('invalid_api_key');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      keyError = error;
      addStep(
        trace,
        'key',
        'fail',
        keyText === undefined
          ? error.code === 'missing_api_key'
            ? 'missing'
            : 'malformed'
          : key
            ? 'revoked'
            : 'unknown',
        keyText && maskKey(keyText),
      );
      key = undefined;
    }
    const account = key ? engine.state.accounts.get(key.accountId) : undefined;
    const resolved = engine.scenarios.resolve(account?.id, key?.id, fromHeader, engine.seed, engine.requestSeq);
    effects = resolved.effects;
    caller.scenarios = resolved.names;
    if (key && account && !effects.revokedKey) {
      addStep(trace, 'key', 'pass', key.id, key.accountId);
      // Known before the scenario answers below, so that their journal entries (and the audit) name the account.
      caller.key = key;
      caller.account = account;
    }
    if (resolved.names.length > 0) addStep(trace, 'scenario', 'applied', resolved.names.join(', '), effectOf(effects));
    if (effects.networkError) return finishNetworkError(engine, req, caller, now);
    if (effects.serverError) throw new ApiError('internal_error');
    if (effects.unavailable) throw new ApiError('service_unavailable', undefined, { 'Retry-After': '30' });
    if (!keyError && effects.revokedKey) {
      keyError = new ApiError('invalid_api_key');
      addStep(trace, 'key', 'fail', 'scenario', keyText && maskKey(keyText));
    }

    if (keyError || !key || !account) {
      // Requests without a valid key count in an anonymous bucket per client.
      const bucket = currentWindow(engine.state.anonymous.get(req.clientId), now);
      if (engine.state.anonymous.size >= MAX_ANONYMOUS_BUCKETS) dropEndedWindows(engine.state.anonymous, now);
      engine.state.anonymous.set(req.clientId, bucket);
      rate = takeRequest(bucket, engine.anonymousRpm);
      addStep(trace, 'rate', rate.admitted ? 'pass' : 'fail', rate.limit, bucket.count, rate.resetAt, true);
      if (!rate.admitted) throw rateLimited(rate, now);
      throw keyError ?? new ApiError('invalid_api_key');
    }
    caller.key = key;
    caller.account = account;
    // Moves that fell due first (O(1) when none did), so that a charge lands in the period it belongs to.
    settleDue(engine, now);
    syncPeriod(account, now);
    const plan = effects.plan ? PLANS[effects.plan] : PLANS[account.plan];

    // 2. Rate: the plan's RPM per account, fixed 60-second windows.
    const bucket = currentWindow(engine.state.buckets.get(account.id), now);
    engine.state.buckets.set(account.id, bucket);
    const rpm = limitsOf(account, plan).rpm;
    rate = effects.rateLimited
      ? { admitted: false, limit: rpm, remaining: 0, resetAt: bucket.windowStart + WINDOW_MS }
      : takeRequest(bucket, rpm);
    addStep(
      trace,
      'rate',
      rate.admitted ? 'pass' : 'fail',
      rate.limit,
      effects.rateLimited ? rpm : bucket.count,
      rate.resetAt,
      false,
    );
    if (!rate.admitted) throw rateLimited(rate, now);
    account.usage.requests += 1;
    if (headerError) throw headerError;

    // 3. Route.
    // HEAD answers as GET does (the door drops the body) and counts like it.
    const match = matchRoute(req.method === 'HEAD' ? 'GET' : req.method, req.path);
    if (!match) {
      addStep(trace, 'route', 'fail', `${req.method} ${engine.basePath}${req.path}`);
      const notFound = new ApiError('not_found', `No route for ${req.method} ${engine.basePath}${req.path}.`);
      if (!req.passUnmatched) throw notFound;
      // A door with handlers of its own answers instead; it records the final answer in the journal.
      const response = finish(engine, req, errorReply(notFound), rate, caller, effects, now, false);
      response.unmatched = {
        accountId: account.id,
        keyId: key.id,
        scopes: [...key.scopes],
        record: (status, code) => {
          addStep(trace, 'answer', status < 400 ? 'pass' : 'fail', status, code);
          record(engine, req, status, code, caller, now);
        },
      };
      return response;
    }
    account.usage.byEndpoint[match.route.endpoint] += 1;
    addStep(trace, 'route', 'pass', match.route.endpoint);

    // 4. Scope.
    const scopes = effects.readOnlyKey ? readOnly(key.scopes) : key.scopes;
    const granted = grants(scopes, match.route.scope);
    addStep(trace, 'scope', granted ? 'pass' : 'fail', match.route.scope, granted ? undefined : scopes.join(' '));
    if (!granted) {
      throw new ApiError(
        'insufficient_scope',
        `This API key lacks the required scope '${match.route.scope}' (or 'admin').`,
      );
    }

    // 5–7. The route: body, resource, money and tokens.
    reply = match.route.run({ engine, req, id: match.id, key, account, plan, effects, now, trace });
  } catch (error) {
    reply = errorReply(error);
    // A check that failed without saying so: the body's (invalid_request, request_too_large).
    if (!lastFailed(trace) && (reply.code === 'invalid_request' || reply.code === 'request_too_large'))
      addStep(trace, 'body', 'fail', (error as ApiError).message);
  }
  return finish(engine, req, reply, rate, caller, effects, now);
}

function errorReply(error: unknown): Reply {
  // Anything that is not an ApiError is a bug of ours: answer 500 in the error shape, never a stack trace.
  const e = error instanceof ApiError ? error : new ApiError('internal_error');
  // An error message may echo what the client sent (a path, an id, a method): keys in it are masked.
  return { status: e.status, body: errorBody(e.code, maskKeys(e.message)), headers: e.headers, code: e.code };
}

/** The one place every answer passes: content type, the rate-limit headers, the journal. */
function finish(
  engine: Engine,
  req: PlainRequest,
  reply: Reply,
  rate: RateState | undefined,
  caller: Caller,
  effects: Effects,
  now: number,
  journal = true,
): PlainResponse {
  const r = rate ?? { limit: engine.anonymousRpm, remaining: engine.anonymousRpm, resetAt: now + WINDOW_MS };
  const headers: Record<string, string> = {
    'Content-Type': JSON_CONTENT_TYPE,
    'X-RateLimit-Limit': String(r.limit),
    'X-RateLimit-Remaining': String(r.remaining),
    'X-RateLimit-Reset': isoOf(r.resetAt),
  };
  if (reply.headers) Object.assign(headers, reply.headers);
  if (journal) addStep(caller.trace, 'answer', reply.status < 400 ? 'pass' : 'fail', reply.status, reply.code ?? null);
  if (req.header('x-sandbox-explain') === '1') headers['X-Sandbox-Trace'] = traceHeader(caller.trace);
  const response: PlainResponse = { status: reply.status, headers, body: reply.body };
  if (journal) record(engine, req, reply.status, reply.code ?? null, caller, now, response);
  if (effects.latencyMs) response.delayMs = effects.latencyMs;
  return response;
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

function finishNetworkError(engine: Engine, req: PlainRequest, caller: Caller, now: number): PlainResponse {
  addStep(caller.trace, 'answer', 'fail', 0, 'network_error');
  const response: PlainResponse = { status: 0, headers: {}, body: '', networkError: true };
  record(engine, req, 0, 'network_error', caller, now, response);
  return response;
}

function record(
  engine: Engine,
  req: PlainRequest,
  status: number,
  code: string | null,
  caller: Caller,
  now: number,
  response?: PlainResponse,
): void {
  const id = engine.requestSeq;
  engine.journal.record(
    id,
    now,
    engine.basePath,
    req,
    response,
    status,
    code,
    caller.key?.id ?? null,
    caller.account?.id ?? null,
    caller.scenarios,
    caller.trace,
  );
  engine.audit?.observe(id, req, status, code, caller.account?.id ?? null, now, caller.trace, response);
}

/** Settles what is due at the clock's time (called by `clock.advance` and reads). */
export function settle(engine: Engine): void {
  const now = engine.clock.now();
  settleDue(engine, now);
  for (const account of engine.state.accounts.values()) syncPeriod(account, now);
}
