import { PLANS, type Plan } from '../model/plans.js';
import { emptyUsage } from '../model/state.js';
import type { Account } from '../model/types.js';
import { periodBounds } from './period.js';

/** The plan in force, and the limits after the account's overrides. */
export function limitsOf(account: Account, plan: Plan = PLANS[account.plan]): { rpm: number; tpm: number } {
  return { rpm: account.limits.rpm ?? plan.rpm, tpm: account.limits.tpm ?? plan.tpm };
}

/**
 * Rolls the account into the period that holds `t`: each period crossed grants the plan's monthly credits (added to
 * the balance) and starts the period's figures from zero. Unfinished tasks carry over: they end, and are charged, in
 * the new period.
 */
export function syncPeriod(account: Account, t: number): void {
  if (t < account.periodEnd) return;
  const credits = PLANS[account.plan].monthlyCreditsNano;
  while (t >= account.periodEnd) {
    const next = periodBounds(account.periodEnd);
    account.periodStart = next.start;
    account.periodEnd = next.end;
    account.balanceNano += credits;
  }
  const carried = account.usage.tasks;
  account.usage = emptyUsage();
  account.usage.tasks.queued = carried.queued;
  account.usage.tasks.running = carried.running;
}
