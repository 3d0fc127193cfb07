/**
 * The moves of a task once planned: its start, its end (the books: hold released, cost charged, usage counted) and
 * the retention bound on finished tasks. Shared by the settles (`settleDue`, one by one; `settleBySums`, which takes a
 * task's own part and its books apart) and the control API (`finish`).
 */
import type { TaskRecord, TaskExtra } from '../model/task-record.js';
import type { Account, TaskError } from '../model/types.js';
import { syncPeriod } from './accounts.js';
import { settleHold } from './billing.js';
import type { TaskEnv } from './task-env.js';

/** A move of a task: when, on which account's books (none once the account is gone), and whether listeners hear of it. */
export interface Move {
  at: number;
  account: Account | undefined;
  /** Default true: a task event is made for the move. */
  tell?: boolean;
}

/** An end: how the task ends, and what the control API forced (a result, an error). */
export interface EndMove extends Move {
  outcome: 'completed' | 'failed';
  detail?: { result?: unknown; error?: TaskError };
}

export function start(env: TaskEnv, task: TaskRecord, { at, account, tell = true }: Move): void {
  if (!task.queued) return;
  // Unfinished tasks are carried into each new period (syncPeriod), so a move always counts in the current one.
  if (account) {
    const counts = account.usage.tasks;
    counts.queued -= 1;
    counts.running += 1;
  }
  startTask(task, at);
  if (tell) env.onTaskEvent?.({ type: 'task.started', task, at });
}

/** A queued task's own part of its start at `at` (the books are the caller's). */
export function startTask(task: TaskRecord, at: number): void {
  if (at !== task.startAt) task.force({ startedAt: at });
  task.markRunning();
}

/**
 * A running task's own part of its end at `at` (what differs from the plan kept, the status set); returns the hold it
 * releases. The books are the caller's (`chargeEnd`).
 */
export function endTask(
  task: TaskRecord,
  at: number,
  outcome: 'completed' | 'failed',
  detail?: { result?: unknown; error?: TaskError },
): number {
  const hold = task.holdNano;
  if (at !== task.endAt || detail) forced(task, at, outcome, detail);
  task.markEnded(outcome);
  return hold;
}

/** An end on its account's books (the running count aside): the hold released, and if completed, the cost charged. */
export function chargeEnd(account: Account, task: TaskRecord, hold: number, outcome: 'completed' | 'failed'): void {
  const usage = account.usage;
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

/**
 * Ends a task now, as the control API asks: completed (charge the actual cost) or failed (charge nothing); the hold is
 * released.
 */
export function finish(env: TaskEnv, task: TaskRecord, end: Omit<EndMove, 'account' | 'tell'>): void {
  endMove(env, task, { ...end, account: env.state.accounts.get(task.accountId) });
  dropBeyondRetention(env);
}

/** A task's end on its books (started first if it is still queued); nothing once it has ended. */
export function endMove(env: TaskEnv, task: TaskRecord, move: EndMove): void {
  const { at, account, outcome, detail, tell = true } = move;
  if (task.ended) return;
  if (account) syncPeriod(account, at);
  if (task.queued) start(env, task, move);
  const hold = endTask(task, at, outcome, detail);
  if (account) {
    account.usage.tasks.running -= 1;
    chargeEnd(account, task, hold, outcome);
  }
  if (tell) env.onTaskEvent?.({ type: outcome === 'completed' ? 'task.completed' : 'task.failed', task, at });
  env.state.finished.add(task);
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

/** From this many tasks dropped at once, and more than half of those stored, the kept ones are stored anew. */
const BULK_DROP = 4096;

/** Drops the finished tasks that finished first, beyond the retention bound, so a long-lived sandbox stays bounded. */
export function dropBeyondRetention(env: TaskEnv): void {
  const keep = env.taskRetention ?? Infinity;
  const { finished, tasks } = env.state;
  const excess = finished.size - keep;
  if (excess <= 0) return;
  if (excess >= BULK_DROP && excess * 2 > tasks.size) {
    // Most of the tasks at once (a big jump): deleting them one by one shrinks and rehashes the table over and over.
    // They are marked instead, and the rest stored again, in their order.
    for (let i = 0; i < excess; i++) (finished.shift() as TaskRecord).markDropped();
    const kept: TaskRecord[] = [];
    for (const task of tasks.values()) if (!task.dropped) kept.push(task);
    tasks.clear();
    for (const task of kept) tasks.set(task.id, task);
    return;
  }
  while (finished.size > keep) {
    const task = finished.shift();
    if (task !== undefined) tasks.delete(task.id);
  }
}
