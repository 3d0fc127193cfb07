import { PLANS } from '../model/plans.js';
import { limitsOf } from '../rules/accounts.js';
import { WINDOW_MS } from '../rules/rate-limit.js';
import type { Engine } from './engine.js';
import { iso } from './iso.js';
import { accountView, taskView } from './views.js';

export interface OverviewOptions {
  /** Most recent tasks to include. Default 200. */
  tasks?: number;
  /** Most recent journal entries to include. Default 100. */
  requests?: number;
}

/**
 * Everything the inspector shows in one read: accounts with their rate window, keys, agents, the newest tasks and
 * requests (newest first), the scenarios in force. Call after settling.
 */
export function overview(engine: Engine, options: OverviewOptions = {}) {
  const { state } = engine;
  const now = engine.clock.now();
  const accounts = [...state.accounts.values()].map((a) => {
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
  const keys = [...state.keysById.values()].map((k) => ({ id: k.id, key: k.key, account_id: k.accountId, scopes: k.scopes, label: k.label, revoked: k.revoked }));
  const agents = state.agents.map((a) => ({ id: a.id, name: a.name, model: a.model, status: a.status, capabilities: a.capabilities }));
  const allTasks = [...state.tasks.values()];
  const tasks = allTasks.slice(Math.max(0, allTasks.length - (options.tasks ?? 200))).reverse().map((t) => ({ ...taskView(t), account_id: t.accountId }));
  const journal = engine.journal.list();
  const requests = journal.slice(Math.max(0, journal.length - (options.requests ?? 100))).reverse();
  return {
    now: iso(now),
    clock: engine.clock.mode,
    accounts,
    keys,
    agents,
    tasks,
    task_count: allTasks.length,
    requests,
    scenarios: engine.scenarios.all().map((s) => ({ id: s.id, name: s.name, options: s.options, account_id: s.scope.accountId ?? null, key_id: s.scope.keyId ?? null })),
  };
}

export type Overview = ReturnType<typeof overview>;
