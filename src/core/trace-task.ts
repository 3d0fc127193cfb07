import { PLANS } from '../model/plans.js';
import type { Account, Task } from '../model/types.js';
import { availableNano, costOf, pricesFor } from '../rules/billing.js';
import { ApiError } from '../rules/errors.js';
import { currentWindow } from '../rules/rate-limit.js';
import type { NewTask, TaskEffects, TaskEnv } from '../rules/tasks.js';
import { inputTokensFor } from '../rules/tokens.js';
import { addStep, type RawTrace } from './trace.js';

/**
 * The money and token checks of task creation, for the trace, in the order `createTask` makes them (money first, then
 * tokens: docs/reference/errors.md, the order of the checks). After a success the figures before the commit are read back from the task; after a 402 or a
 * 429 nothing was committed, so the estimate is worked out again from the same rules (only on that path).
 */
export function traceTaskChecks(
  trace: RawTrace,
  env: TaskEnv,
  account: Account,
  input: NewTask,
  now: number,
  effects: TaskEffects,
  error: unknown,
  task?: Task,
): void {
  const bucket = currentWindow(env.state.buckets.get(account.id), now);
  const maxTokens = input.agent.tokens.outputMax;
  if (task) {
    const needed = task.inputTokens + maxTokens;
    const heldBefore = account.heldNano - task.holdNano;
    const spendable = effects.spendableNano ?? Math.max(0, account.balanceNano - heldBefore);
    addStep(trace, 'balance', 'pass', account.balanceNano, heldBefore, task.holdNano, spendable);
    addStep(trace, 'tpm', 'pass', effects.tpm, bucket.tokens - needed, needed);
    return;
  }
  if (!(error instanceof ApiError)) return;
  const inputTokens = inputTokensFor(input.description, input.agent);
  const hold = costOf(inputTokens, maxTokens, pricesFor(input.model, effects.plan ?? PLANS[account.plan]));
  const spendable = effects.spendableNano ?? availableNano(account);
  if (error.code === 'insufficient_credits') {
    addStep(trace, 'balance', 'fail', account.balanceNano, account.heldNano, hold, spendable);
  } else if (error.code === 'rate_limit_exceeded') {
    addStep(trace, 'balance', 'pass', account.balanceNano, account.heldNano, hold, spendable);
    addStep(trace, 'tpm', 'fail', effects.tpm, bucket.tokens, inputTokens + maxTokens);
  }
}
