import type { ModelId } from '../model/models.js';
import { PLANS, type Plan } from '../model/plans.js';
import { drawnId, intBetween, rngFor } from '../model/random.js';
import { intern } from '../model/intern.js';
import { TaskRecord } from '../model/task-record.js';
import type { Account, Agent, Priority, Task } from '../model/types.js';
import { syncPeriod } from './accounts.js';
import { assertAffordable, availableNano, costOf, pricesFor } from './billing.js';
import { ApiError } from './errors.js';
import { WINDOW_MS, currentWindow, retryAfterSeconds, tokensLeft } from './rate-limit.js';
import { planProgress } from './task-progress.js';
import { inputTokensFor } from './tokens.js';
import { taskResult } from './results/index.js';
import { resultTypeFor } from '../model/result-types.js';
import { BULK_MIN, settleBulk } from './settle-bulk.js';
import { settleBySums } from './settle-sums.js';
import { dropBeyondRetention, end, start } from './task-moves.js';

import type { TaskEnv } from './task-env.js';

export type { TaskEnv, TaskEvent, TaskEventType } from './task-env.js';
export { dropBeyondRetention, finish } from './task-moves.js';

export interface NewTask {
  agent: Agent;
  description: string;
  priority: Priority;
  model: ModelId;
}

/** Per-request changes that scenarios make to task creation. */
export interface TaskEffects {
  plan?: Plan;
  tpm: number;
  /** Spendable balance override (`out-of-credits`: 0). */
  spendableNano?: number;
  slowFactor?: number;
  fail?: boolean;
}

/**
 * Creates a task: estimates its tokens and cost, checks money (402) then tokens (429), holds the estimated cost and
 * schedules its moves. Throws before changing anything when a check fails.
 */
export function createTask(
  env: TaskEnv,
  account: Account,
  input: NewTask,
  now: number,
  effects: TaskEffects,
): TaskRecord {
  const { state } = env;
  const plan = effects.plan ?? PLANS[account.plan];
  const seq = state.counters.task + 1;
  // One generator per task: its id (the first 16 draws, as `seededId` makes it), then its planned progress.
  const rand = rngFor(env.seed, `task:${seq}`);
  const inputTokens = inputTokensFor(input.description, input.agent);
  const { outputMin, outputMax } = input.agent.tokens;
  const prices = pricesFor(input.model, plan);
  const hold = costOf(inputTokens, outputMax, prices);
  const estimatedTokens = inputTokens + outputMax;

  const bucket = currentWindow(state.buckets.get(account.id), now);
  const left = tokensLeft(bucket, effects.tpm);
  // Money first, then tokens (docs/reference/errors.md); both before any change.
  assertAffordable(hold, effects.spendableNano ?? availableNano(account));
  if (estimatedTokens > left) {
    // More than the whole limit: no wait helps, and the message says so (the 429 and its Retry-After stay).
    const never = estimatedTokens > effects.tpm;
    throw new ApiError(
      'rate_limit_exceeded',
      never
        ? `Rate limit exceeded: this task needs about ${estimatedTokens} tokens, more than the whole limit of ${effects.tpm} tokens per minute: it never fits at this limit. Shorten the description, choose an agent with less output, or move to a plan with a higher limit.`
        : `Rate limit exceeded: this task needs about ${estimatedTokens} tokens and ${left} of the ${effects.tpm} tokens per minute remain. Please slow down.`,
      { 'Retry-After': String(retryAfterSeconds(bucket.windowStart + WINDOW_MS, now)) },
    );
  }

  // All checks passed: commit.
  account.heldNano += hold;
  bucket.tokens += estimatedTokens;
  state.buckets.set(account.id, bucket);
  state.counters.task = seq;
  const id = drawnId('task', rand);
  const { startAt, endAt } = planProgress(rand, now, input.priority, env.timings, effects.slowFactor);
  const plannedOutputTokens = intBetween(rand, outputMin, outputMax);
  const outcome: 'completed' | 'failed' = effects.fail ? 'failed' : 'completed';
  const resultType = resultTypeFor(input.agent.capabilities, input.description);
  const fields = { priority: input.priority, model: input.model, status: 'queued' as const, outcome, resultType };
  const plannedCostNano = costOf(inputTokens, plannedOutputTokens, prices);
  const task = new TaskRecord(
    id,
    seq,
    account.id,
    input.agent.id,
    intern(input.description),
    fields,
    inputTokens,
    plannedOutputTokens,
    plannedCostNano,
    hold,
    now,
    startAt,
    endAt,
  );
  state.tasks.set(task.id, task);
  account.usage.tasks.queued += 1;
  // One planned move per task in the queue at a time: its end is queued when it starts (see settleDue).
  state.due.push(startAt, task, seq, 'start');
  env.onTaskEvent?.({ type: 'task.created', task, at: now });
  return task;
}

/**
 * A task's result as the API shows it: the forced one if any, once completed the seeded result of its shape (derived
 * here, never stored: its output's token count is the planned output tokens the task is billed), else null.
 */
export function resultOf(task: Task): unknown {
  if (task.result !== undefined) return task.result;
  if (task.status !== 'completed') return null;
  return taskResult(task.id, task.description, task.resultType ?? 0, task.plannedOutputTokens);
}

/**
 * Applies the planned moves that are due at `now`, in time order: all of them, or at most `limit` (a slice, see
 * `settle-loop.ts`). Returns whether moves due at `now` remain. One tight loop: no closure and no lookup per move
 * beyond the account of a task unlike the previous one's; the retention bound is applied once at the end. From
 * `bulkFrom` due moves on (default: 4,096, or an eighth of the queue if more than 256), all are settled in bulk.
 */
export function settleDue(env: TaskEnv, now: number, limit = Infinity, bulkFrom?: number): boolean {
  const { due, accounts } = env.state;
  if (due.peekAt() > now) return false;
  // A big jump: every due move at once (settle-bulk.ts), the same sequence of moves as the pops below.
  const enough = bulkFrom ?? Math.min(BULK_MIN, Math.max(256, due.size >> 3));
  const tell = env.quietMoves?.() !== true;
  if (limit === Infinity && enough !== Infinity && due.countDue(now, enough) >= enough) {
    // Nobody listens: only the books and the finished list see the order (settle-sums.ts).
    if (tell) settleBulk(env, now);
    else settleBySums(env, now);
    dropBeyondRetention(env);
    return false;
  }
  let accountId: string | undefined;
  let account: Account | undefined;
  let settled = 0;
  while (settled < limit) {
    const task = due.popDue(now);
    if (task === undefined) break;
    settled += 1;
    // A task dropped (retention) or ended early (control API) has ended: its planned moves change nothing.
    if (task.ended) continue;
    if (task.accountId !== accountId) {
      accountId = task.accountId;
      account = accounts.get(accountId);
    }
    const at = due.poppedAt;
    if (due.poppedEnd) end(env, task, at, account, task.outcome, undefined, tell);
    else {
      if (account) syncPeriod(account, at);
      start(env, task, at, account, tell);
      // Its end (same keys as if it had been queued at creation, so the order of moves is unchanged).
      due.push(task.endAt, task, task.seq, 'end');
    }
  }
  dropBeyondRetention(env);
  return due.peekAt() <= now;
}
