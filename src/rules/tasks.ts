import type { Faker } from '@faker-js/faker';
import { LOREM_WORDS } from '../model/default-fixtures.js';
import type { ModelId } from '../model/models.js';
import { PLANS, type Plan } from '../model/plans.js';
import { intBetween, randomString, rngFor } from '../model/random.js';
import type { State } from '../model/state.js';
import { intern } from '../model/intern.js';
import { TaskRecord, type TaskExtra } from '../model/task-record.js';
import type { Account, Agent, Priority, Task, TaskError } from '../model/types.js';
import { syncPeriod } from './accounts.js';
import { assertAffordable, availableNano, costOf, pricesFor, settleHold } from './billing.js';
import { ApiError } from './errors.js';
import { WINDOW_MS, currentWindow, retryAfterSeconds, tokensLeft } from './rate-limit.js';
import { planProgress, type TaskTimings } from './task-progress.js';
import { inputTokensFor } from './tokens.js';

export type TaskEventType = 'task.created' | 'task.started' | 'task.completed' | 'task.failed';

/** A move of a task, at the sandbox time it happened (for observers such as webhooks). */
export interface TaskEvent {
  type: TaskEventType;
  task: Task;
  at: number;
}

/** What task rules need beside the state. */
export interface TaskEnv {
  state: State;
  seed: number;
  faker: Faker;
  timings: TaskTimings;
  /** How many finished tasks are kept; the oldest finished beyond it are dropped (then read 404). Default: all. */
  taskRetention?: number;
  /** Told of every task move, in order, exactly once. */
  onTaskEvent?: (event: TaskEvent) => void;
}

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
  // Money first, then tokens (README.md, "Errors"); both before any change.
  assertAffordable(hold, effects.spendableNano ?? availableNano(account));
  if (estimatedTokens > left) {
    throw new ApiError(
      'rate_limit_exceeded',
      `Rate limit exceeded: this task needs about ${estimatedTokens} tokens and ${left} of the ${effects.tpm} tokens per minute remain. Please slow down.`,
      { 'Retry-After': String(retryAfterSeconds(bucket.windowStart + WINDOW_MS, now)) },
    );
  }

  // All checks passed: commit.
  account.heldNano += hold;
  bucket.tokens += estimatedTokens;
  state.buckets.set(account.id, bucket);
  state.counters.task = seq;
  const id = `task_${randomString(rand, 16)}`;
  const { startAt, endAt } = planProgress(rand, now, input.priority, env.timings, effects.slowFactor);
  const plannedOutputTokens = intBetween(rand, outputMin, outputMax);
  const outcome: 'completed' | 'failed' = effects.fail ? 'failed' : 'completed';
  const fields = { priority: input.priority, model: input.model, status: 'queued' as const, outcome };
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
 * Seeded output text of a completed task: 1–3 paragraphs of faker's lorem words, drawn from the task's id (itself
 * derived from the seed) with our own generator, since re-seeding faker per task costs ~0.15 ms. It is not stored:
 * views derive it, so 100,000 finished tasks do not keep 100,000 texts in memory.
 */
function resultFor(task: Task): { output: string } {
  const rand = rngFor(0, `result:${task.id}`);
  const words = LOREM_WORDS;
  const paragraphs: string[] = [];
  for (let p = intBetween(rand, 1, 3); p > 0; p--) {
    const sentences: string[] = [];
    for (let s = intBetween(rand, 3, 6); s > 0; s--) {
      const picked: string[] = [];
      for (let w = intBetween(rand, 5, 12); w > 0; w--) picked.push(words[Math.floor(rand() * words.length)] ?? '');
      const text = picked.join(' ');
      sentences.push(`${text.charAt(0).toUpperCase()}${text.slice(1)}.`);
    }
    paragraphs.push(sentences.join(' '));
  }
  return { output: paragraphs.join('\n') };
}

/** A task's result as the API shows it: the forced one if any, the seeded text once completed, else null. */
export function resultOf(task: Task): unknown {
  if (task.result !== undefined) return task.result;
  return task.status === 'completed' ? resultFor(task) : null;
}

function start(env: TaskEnv, task: TaskRecord, at: number, account: Account | undefined): void {
  if (!task.queued) return;
  if (at !== task.startAt) task.force({ startedAt: at });
  // Unfinished tasks are carried into each new period (syncPeriod), so a move always counts in the current one.
  if (account) {
    const counts = account.usage.tasks;
    counts.queued -= 1;
    counts.running += 1;
  }
  task.markRunning();
  env.onTaskEvent?.({ type: 'task.started', task, at });
}

/** Ends a task at `at`: completed (charge the actual cost) or failed (charge nothing); the hold is released. */
export function finish(
  env: TaskEnv,
  task: TaskRecord,
  at: number,
  outcome: 'completed' | 'failed',
  detail?: { result?: unknown; error?: TaskError },
): void {
  const account = env.state.accounts.get(task.accountId);
  end(env, task, at, account, outcome, detail);
  dropBeyondRetention(env);
}

function end(
  env: TaskEnv,
  task: TaskRecord,
  at: number,
  account: Account | undefined,
  outcome: 'completed' | 'failed',
  detail?: { result?: unknown; error?: TaskError },
): void {
  if (task.ended) return;
  if (account) syncPeriod(account, at);
  if (task.queued) start(env, task, at, account);
  const hold = task.holdNano;
  if (at !== task.endAt || detail) forced(task, at, outcome, detail);
  if (account) {
    const usage = account.usage;
    usage.tasks.running -= 1;
    if (outcome === 'completed') {
      const cost = task.plannedCostNano;
      settleHold(account, hold, cost);
      usage.inputTokens += task.inputTokens;
      usage.outputTokens += task.plannedOutputTokens;
      usage.costNano += cost;
      usage.tasks.completed += 1;
    } else {
      settleHold(account, hold);
      usage.tasks.failed += 1;
    }
  }
  task.markEnded(outcome);
  env.onTaskEvent?.({ type: outcome === 'completed' ? 'task.completed' : 'task.failed', task, at });
  env.state.finished.add(task.id);
}

/** What differs from the plan when the control API ends a task: kept in the task's `extra`. */
function forced(
  task: TaskRecord,
  at: number,
  outcome: 'completed' | 'failed',
  detail?: { result?: unknown; error?: TaskError },
): void {
  const changes: TaskExtra = {};
  if (at !== task.endAt) changes.completedAt = at;
  if (outcome === 'completed' && detail?.result !== undefined) changes.result = detail.result;
  if (outcome === 'failed' && detail?.error !== undefined) changes.error = detail.error;
  if (Object.keys(changes).length > 0) task.force(changes);
}

/** Drops the finished tasks that finished first, beyond the retention bound, so a long-lived sandbox stays bounded. */
export function dropBeyondRetention(env: TaskEnv): void {
  const keep = env.taskRetention ?? Infinity;
  const { finished, tasks } = env.state;
  while (finished.size > keep) {
    const id = finished.shift();
    if (id !== undefined) tasks.delete(id);
  }
}

/**
 * Applies the planned moves that are due at `now`, in time order: all of them, or at most `limit` (a slice, see
 * `settle-loop.ts`). Returns whether moves due at `now` remain. One tight loop: no closure and no lookup per move
 * beyond the account of a task unlike the previous one's; the retention bound is applied once at the end.
 */
export function settleDue(env: TaskEnv, now: number, limit = Infinity): boolean {
  const { due, accounts } = env.state;
  if (due.peekAt() > now) return false;
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
    if (due.poppedEnd) end(env, task, at, account, task.outcome);
    else {
      if (account) syncPeriod(account, at);
      start(env, task, at, account);
      // Its end (same keys as if it had been queued at creation, so the order of moves is unchanged).
      due.push(task.endAt, task, task.seq, 'end');
    }
  }
  dropBeyondRetention(env);
  return due.peekAt() <= now;
}
