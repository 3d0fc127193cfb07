import { PLANS } from '../model/plans.js';
import { limitsOf } from '../rules/accounts.js';
import { WINDOW_MS } from '../rules/rate-limit.js';
import type { Engine } from './engine.js';
import { iso } from './iso.js';
import { maskKey } from './mask.js';
import type { SummaryFields } from './journal.js';
import { accountView, taskView } from './views.js';

export interface OverviewOptions {
  /** Accounts to include (the first ones, in creation order). Default 200; `account_count` tells how many there are. */
  accounts?: number;
  /** Keys to include (the first ones, in creation order), shown by their prefix only. Default 200. */
  keys?: number;
  /** Most recent tasks to include. Default 200. */
  tasks?: number;
  /** Most recent journal entries to include. Default 100. */
  requests?: number;
  /**
   * Most recent journal entries to include as summaries (no trace, headers or bodies), newest first, in
   * `request_summaries`; `filter` keeps some only (the newest `limit` it accepts).
   */
  requestSummaries?: { limit?: number; filter?: (e: SummaryFields) => boolean };
}

/** Accounts and keys listed by default: one read stays small however many the sandbox holds. */
const LISTED = 200;

/** The first `n` values of an iterator, without copying the rest. */
function first<T>(values: Iterable<T>, n: number): T[] {
  const out: T[] = [];
  if (n <= 0) return out;
  for (const v of values) if (out.push(v) >= n) break;
  return out;
}

/**
 * A mark of what the overview shows that changes whenever the sandbox does (the journal, the task moves, the catalog;
 * the clock when it is manual), without building anything: equal marks and equal accounts, keys and scenarios mean
 * an equal overview (the inspector answers 304 from it). A real clock's time is left out: its moves show in the rest.
 */
function versionOf(engine: Engine): string {
  const { state } = engine;
  const clock = engine.clock.mode === 'manual' ? engine.clock.now() : '';
  return `${engine.journal.version}.${state.counters.task}.${state.tasks.size}.${state.finished.size}.${state.due.size}.${state.due.peekAt()}.${state.catalogVersion}.${clock}`;
}

/**
 * Everything the inspector shows in one read: accounts with their rate window, keys, agents, the newest tasks and
 * requests (newest first), the scenarios in force. Call after settling.
 */
export function overview(engine: Engine, options: OverviewOptions = {}) {
  const { state } = engine;
  const now = engine.clock.now();
  const accounts = first(state.accounts.values(), options.accounts ?? LISTED).map((a) => {
    const limits = limitsOf(a, PLANS[a.plan]);
    const bucket = state.buckets.get(a.id);
    const live = bucket !== undefined && now < bucket.windowStart + WINDOW_MS;
    return {
      ...accountView(a),
      rate_window: {
        requests: live ? bucket.count : 0,
        tokens: live ? bucket.tokens : 0,
        remaining: Math.max(0, limits.rpm - (live ? bucket.count : 0)),
        reset: live ? iso(bucket.windowStart + WINDOW_MS) : null,
      },
      period_requests: a.usage.requests,
      period_cost_usd: a.usage.costNano / 1e9,
    };
  });
  // A key's prefix only: the whole key comes from the banner, GET /__sandbox/keys and `sandbox.keys`.
  const keys = first(state.keysById.values(), options.keys ?? LISTED).map((k) => ({
    id: k.id,
    key: maskKey(k.key),
    account_id: k.accountId,
    scopes: k.scopes,
    label: k.label,
    revoked: k.revoked,
  }));
  const agents = state.agents.map((a) => ({
    id: a.id,
    name: a.name,
    model: a.model,
    status: a.status,
    capabilities: a.capabilities,
  }));
  const wanted = options.tasks ?? 200;
  const allTasks = wanted > 0 ? [...state.tasks.values()] : [];
  const tasks = allTasks
    .slice(Math.max(0, allTasks.length - wanted))
    .reverse()
    .map((t) => ({ ...taskView(t), account_id: t.accountId }));
  const requests = engine.journal.list(options.requests ?? 100).reverse();
  const listed = options.requestSummaries;
  const summaries = listed === undefined ? undefined : engine.journal.summaries(listed.limit, listed.filter);
  return {
    version: versionOf(engine),
    now: iso(now),
    clock: engine.clock.mode,
    accounts,
    account_count: state.accounts.size,
    keys,
    key_count: state.keysById.size,
    agents,
    tasks,
    task_count: state.tasks.size,
    request_count: engine.journal.size,
    requests,
    ...(summaries ? { request_summaries: summaries } : {}),
    scenarios: engine.scenarios.all().map((s) => ({
      id: s.id,
      name: s.name,
      options: s.options,
      account_id: s.scope.accountId ?? null,
      key_id: s.scope.keyId ?? null,
    })),
  };
}

export type Overview = ReturnType<typeof overview>;
