import { PLANS, type Plan } from '../model/plans.js';
import type { Account, ApiKey } from '../model/types.js';
import { limitsOf, syncPeriod } from '../rules/accounts.js';
import { readBearerKey } from '../rules/auth.js';
import { NO_EFFECTS } from '../rules/effects.js';
import { ApiError } from '../rules/errors.js';
import { currentWindow, takeRequest, WINDOW_MS, type RateDecision } from '../rules/rate-limit.js';
import { grants } from '../rules/scopes.js';
import { settleDue } from '../rules/tasks.js';
import type { Engine } from './engine.js';
import { dropEndedWindows, effectOf, MAX_ANONYMOUS_BUCKETS, rateLimited, readOnly, scenarioHeader } from './guards.js';
import { maskKey } from './mask.js';
import { allowedMethods, nearestPath } from './route-hints.js';
import { matchRoute, type Reply, type Route } from './routes.js';
import { addStep, lastFailed } from './trace.js';
import { answer, answerNetworkError, errorReply, record, type Caller, type Exchange } from './answer.js';
import type { PlainRequest, PlainResponse } from './types.js';

export { JSON_CONTENT_TYPE, REQUEST_ID_HEADER } from './answer.js';

/** Who a request comes from, as far as its headers tell (before the rate check). */
interface Identity {
  key: ApiKey | undefined;
  account: Account | undefined;
  keyText: string | undefined;
  keyError: ApiError | undefined;
  /** An unknown X-Sandbox-Scenario name: a 400 answered after the key and rate checks (the request still counts). */
  headerError: ApiError | undefined;
}

const NO_NAMES: string[] = [];
/** How the paging checks word a bad query parameter (src/core/paging.ts). */
const QUERY_ERROR = /^Invalid query parameter '([^']+)'/;
/** A credential in the query string: where a client put its key instead of the Authorization header. */
const KEY_IN_QUERY = /(^|&)(api[_-]?key|apikey|access_token|token|key)=|ak_/i;

/**
 * The request core: a plain request in, a plain response out. Runs the checks in the order of docs/reference/errors.md
 * (key → rate → route → scope → body → resource → money and tokens), then the route; every answer, error or not,
 * leaves through `answer`, which sets the rate-limit headers.
 */
export function handle(engine: Engine, req: PlainRequest): PlainResponse {
  const now = engine.clock.now();
  engine.requestSeq += 1;
  const caller: Caller = {
    id: engine.requestSeq,
    key: undefined,
    account: undefined,
    scenarios: NO_NAMES,
    trace: [],
    rate: undefined,
    effects: NO_EFFECTS,
  };
  const x: Exchange = { engine, req, now, caller };
  let reply: Reply;
  try {
    const who = identify(engine, req, caller);
    if (caller.effects.networkError) return answerNetworkError(x);
    const { key, account, plan } = admit(x, who);
    // 3. Route. HEAD answers as GET does (the door drops the body) and counts like it.
    const match = matchRoute(req.method === 'HEAD' ? 'GET' : req.method, req.path);
    if (!match) {
      const where = `${req.method} ${engine.basePath}${req.path}`;
      const allowed = allowedMethods(req.method, req.path);
      // Which method the path allows, else the path a typo was meant for: what to change.
      addStep(
        caller.trace,
        'route',
        'fail',
        where,
        allowed.join(', ') || null,
        allowed.length ? null : nearestPath(req.path),
      );
      const notFound = new ApiError('not_found', `No route for ${where}.`);
      if (!req.passUnmatched) throw notFound;
      return answerUnmatched(x, notFound);
    }
    account.usage.byEndpoint[match.route.endpoint] += 1;
    addStep(caller.trace, 'route', 'pass', match.route.endpoint);
    checkScope(caller, key, match.route);
    // 5–7. The route: body, resource, money and tokens.
    reply = match.route.run({
      engine,
      req,
      id: match.id,
      key,
      account,
      plan,
      effects: caller.effects,
      now,
      trace: caller.trace,
    });
  } catch (error) {
    reply = errorReply(error);
    // A check that failed without saying so: a query parameter's, or the body's (invalid_request, request_too_large).
    if (!lastFailed(caller.trace) && (reply.code === 'invalid_request' || reply.code === 'request_too_large')) {
      const message = (error as ApiError).message;
      const param = QUERY_ERROR.exec(message)?.[1];
      if (param !== undefined) addStep(caller.trace, 'query', 'fail', param, message);
      else addStep(caller.trace, 'body', 'fail', message);
    }
  }
  return answer(x, reply);
}

/** 1. Key: read it, look it up (O(1)), resolve the scenarios that apply to it. */
function identify(engine: Engine, req: PlainRequest, caller: Caller): Identity {
  const { trace } = caller;
  let headerError: ApiError | undefined;
  let fromHeader: readonly string[] = NO_NAMES;
  try {
    fromHeader = scenarioHeader(req.header('x-sandbox-scenario'));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    headerError = error;
  }
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
    const inQuery = keyText === undefined && KEY_IN_QUERY.test(req.query);
    addStep(trace, 'key', 'fail', inQuery ? 'in-query' : keyFailure(error, keyText, key), keyText && maskKey(keyText));
    key = undefined;
  }
  const account = key ? engine.state.accounts.get(key.accountId) : undefined;
  const resolved = engine.scenarios.resolve({
    accountId: account?.id,
    keyId: key?.id,
    fromHeader,
    seed: engine.seed,
    requestSeq: engine.requestSeq,
  });
  const effects = resolved.effects;
  caller.effects = effects;
  caller.scenarios = resolved.names;
  if (key && account && !effects.revokedKey) {
    addStep(trace, 'key', 'pass', key.id, key.accountId);
    // Known before the scenario answers below, so that their journal entries (and the audit) name the account.
    caller.key = key;
    caller.account = account;
  }
  if (resolved.names.length > 0) addStep(trace, 'scenario', 'applied', resolved.names.join(', '), effectOf(effects));
  return { key, account, keyText, keyError, headerError };
}

function keyFailure(error: ApiError, keyText: string | undefined, key: ApiKey | undefined): string {
  if (keyText === undefined) return error.code === 'missing_api_key' ? 'missing' : 'malformed';
  return key ? 'revoked' : 'unknown';
}

/** The scenario faults, then 2. Rate: the plan's RPM per account, fixed 60-second windows. Throws the answer. */
function admit(x: Exchange, who: Identity): { key: ApiKey; account: Account; plan: Plan } {
  const { engine, caller, now } = x;
  const { effects, trace } = caller;
  if (effects.serverError) throw new ApiError('internal_error');
  if (effects.unavailable) throw new ApiError('service_unavailable', undefined, { 'Retry-After': '30' });
  let keyError = who.keyError;
  if (!keyError && effects.revokedKey) {
    keyError = new ApiError('invalid_api_key');
    addStep(trace, 'key', 'fail', 'scenario', who.keyText && maskKey(who.keyText));
  }
  const { key, account } = who;
  if (keyError || !key || !account) throw anonymous(x, keyError);
  caller.key = key;
  caller.account = account;
  // Moves that fell due first (O(1) when none did), so that a charge lands in the period it belongs to.
  settleDue(engine, now);
  syncPeriod(account, now);
  const plan = effects.plan ? PLANS[effects.plan] : PLANS[account.plan];
  const held = engine.state.buckets.get(account.id);
  const bucket = currentWindow(held, now);
  // Stored again only when a new window began (the same bucket otherwise: nothing to write).
  if (bucket !== held) engine.state.buckets.set(account.id, bucket);
  const rpm = limitsOf(account, plan).rpm;
  const rate: RateDecision = effects.rateLimited
    ? { admitted: false, limit: rpm, remaining: 0, resetAt: bucket.windowStart + WINDOW_MS }
    : takeRequest(bucket, rpm);
  caller.rate = rate;
  const used = effects.rateLimited ? rpm : bucket.count;
  addStep(trace, 'rate', rate.admitted ? 'pass' : 'fail', rate.limit, used, rate.resetAt, false);
  if (!rate.admitted) throw rateLimited(rate, now);
  account.usage.requests += 1;
  if (who.headerError) {
    addStep(trace, 'header', 'fail', 'X-Sandbox-Scenario', who.headerError.message);
    throw who.headerError;
  }
  return { key, account, plan };
}

/** Requests without a valid key count in an anonymous bucket per client: the error to answer with. */
function anonymous(x: Exchange, keyError: ApiError | undefined): ApiError {
  const { engine, req, caller, now } = x;
  const buckets = engine.state.anonymous;
  const bucket = currentWindow(buckets.get(req.clientId), now);
  if (buckets.size >= MAX_ANONYMOUS_BUCKETS) dropEndedWindows(buckets, now);
  buckets.set(req.clientId, bucket);
  const rate = takeRequest(bucket, engine.anonymousRpm);
  caller.rate = rate;
  addStep(caller.trace, 'rate', rate.admitted ? 'pass' : 'fail', rate.limit, bucket.count, rate.resetAt, true);
  if (!rate.admitted) return rateLimited(rate, now);
  return keyError ?? new ApiError('invalid_api_key');
}

/** 4. Scope. */
function checkScope(caller: Caller, key: ApiKey, route: Route): void {
  const scopes = caller.effects.readOnlyKey ? readOnly(key.scopes) : key.scopes;
  const granted = grants(scopes, route.scope);
  addStep(caller.trace, 'scope', granted ? 'pass' : 'fail', route.scope, granted ? undefined : scopes.join(' '));
  if (!granted)
    throw new ApiError('insufficient_scope', `This API key lacks the required scope '${route.scope}' (or 'admin').`);
}

/** No route matched on a door with handlers of its own: it answers instead, and records the final answer. */
function answerUnmatched(x: Exchange, notFound: ApiError): PlainResponse {
  const response = answer(x, errorReply(notFound), false);
  const { key, account, trace } = x.caller;
  if (!key || !account) return response;
  response.unmatched = {
    accountId: account.id,
    keyId: key.id,
    scopes: [...key.scopes],
    record: (status, code) => {
      addStep(trace, 'answer', status < 400 ? 'pass' : 'fail', status, code);
      record(x, status, code);
    },
  };
  return response;
}

/** Settles what is due at the clock's time (called by `clock.advance` and reads). */
export function settle(engine: Engine): void {
  const now = engine.clock.now();
  settleDue(engine, now);
  for (const account of engine.state.accounts.values()) syncPeriod(account, now);
}
