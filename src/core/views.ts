import { MODELS } from '../model/models.js';
import { nanoToUsd } from '../model/money.js';
import type { Account, Agent, Task } from '../model/types.js';
import { limitsOf } from '../rules/accounts.js';
import { resultOf } from '../rules/tasks.js';
import type { Plan } from '../model/plans.js';

// The last time formatted: answers in a burst mostly show the same millisecond (a new task's created_at is "now").
let lastTime = NaN;
let lastIso = '';
export const iso = (t: number | null): string | null => {
  if (t === null) return null;
  if (t !== lastTime) {
    lastIso = new Date(t).toISOString();
    lastTime = t;
  }
  return lastIso;
};

/** The Agent record of the API (its schema: `AgentSchema`, view-schemas.ts). Pricing is the model's list price in USD per 1M tokens. */
export function agentView(agent: Agent) {
  const model = MODELS[agent.model];
  return {
    id: agent.id,
    name: agent.name,
    description: agent.description,
    capabilities: agent.capabilities,
    model: agent.model,
    pricing: {
      currency: 'usd',
      input_per_1m_tokens: model.inputNanoPerToken / 1000,
      output_per_1m_tokens: model.outputNanoPerToken / 1000,
    },
    status: agent.status,
    created_at: iso(agent.createdAt),
  };
}

/** The Task record of the API (its schema: `TaskSchema`, view-schemas.ts). */
export function taskView(task: Task) {
  return {
    id: task.id,
    agent_id: task.agentId,
    description: task.description,
    priority: task.priority,
    model: task.model,
    status: task.status,
    result: resultOf(task),
    error: task.error,
    usage: {
      input_tokens: task.inputTokensCharged,
      output_tokens: task.outputTokensCharged,
      cost_usd: nanoToUsd(task.costNano),
    },
    created_at: iso(task.createdAt),
    started_at: iso(task.startedAt),
    completed_at: iso(task.completedAt),
  };
}

/** The usage statistics of the account's current billing period (its schema: `UsageSchema`, view-schemas.ts). */
export function usageView(account: Account, plan: Plan) {
  const u = account.usage;
  return {
    account_id: account.id,
    plan: plan.id,
    period_start: iso(account.periodStart),
    period_end: iso(account.periodEnd),
    balance_usd: nanoToUsd(account.balanceNano),
    requests: { total: u.requests, by_endpoint: { ...u.byEndpoint } },
    tokens: { input: u.inputTokens, output: u.outputTokens, total: u.inputTokens + u.outputTokens },
    cost_usd: nanoToUsd(u.costNano),
    tasks: { ...u.tasks },
    limits: limitsOf(account, plan),
  };
}

/** The account as the control API and `sandbox.accounts` show it. */
export function accountView(account: Account) {
  const limits = limitsOf(account);
  return {
    id: account.id,
    name: account.name,
    plan: account.plan,
    balance_usd: nanoToUsd(account.balanceNano),
    held_usd: nanoToUsd(account.heldNano),
    limits,
    period_start: iso(account.periodStart),
    period_end: iso(account.periodEnd),
  };
}
