/**
 * The moves of a task once planned: its start, its end (the books: hold released, cost charged, usage counted) and
 * the retention bound on finished tasks. Shared by the settles (`settleDue`, one by one; `settleBulk`) and the
 * control API (`finish`).
 */
import type { TaskRecord, TaskExtra } from '../model/task-record.js';
import type { Account, TaskError } from '../model/types.js';
import { syncPeriod } from './accounts.js';
import { settleHold } from './billing.js';
import type { TaskEnv } from './task-env.js';

export function start(env: TaskEnv, task: TaskRecord, at: number, account: Account | undefined, tell = true): void {
  if (!task.queued) return;
  if (at !== task.startAt) task.force({ startedAt: at });
  // Unfinished tasks are carried into each new period (syncPeriod), so a move always counts in the current one.
  if (account) {
    const counts = account.usage.tasks;
    counts.queued -= 1;
    counts.running += 1;
  }
  task.markRunning();
  if (tell) env.onTaskEvent?.({ type: 'task.started', task, at });
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

export function end(
  env: TaskEnv,
  task: TaskRecord,
  at: number,
  account: Account | undefined,
  outcome: 'completed' | 'failed',
  detail?: { result?: unknown; error?: TaskError },
  tell = true,
): void {
  if (task.ended) return;
  if (account) syncPeriod(account, at);
  if (task.queued) start(env, task, at, account, tell);
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
  if (tell) env.onTaskEvent?.({ type: outcome === 'completed' ? 'task.completed' : 'task.failed', task, at });
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
