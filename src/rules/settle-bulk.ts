/**
 * Settling a big jump in bulk: every move due at `now` is taken out of the due queue at once (the run's due front and
 * one linear scan of the heap, which is then rebuilt from the rest in O(n)), the ends of the tasks that start in the
 * batch and end by `now` are added (known at their start: `endAt`), the batch is sorted once by the queue's own key
 * (time, then order), and the moves are applied in that order. Popping the moves one by one gives the same sequence:
 * the keys are unique, and an end is queued at its task's start with a later key, so the pops come out sorted.
 */
import type { TaskRecord } from '../model/task-record.js';
import type { Account } from '../model/types.js';
import { syncPeriod } from './accounts.js';
import type { TaskEnv } from './task-env.js';
import { end, start } from './task-moves.js';
import { Batch, sortedPositions } from './move-batch.js';

/** From this many due moves on (or an eighth of the queue, if more than 256), a settle takes them in bulk. */
export const BULK_MIN = 4096;

/** Applies every move due at `now` (the retention bound is the caller's). */
export function settleBulk(env: TaskEnv, now: number): void {
  const batch = new Batch(2 * env.state.due.size);
  env.state.due.takeDue(now, (at, order, task) => batch.add(at, order, task));
  // The ends of the tasks that start in the batch, when due by `now` and after their start (as settleDue queues them).
  const taken = batch.n;
  for (let i = 0; i < taken; i++) {
    const order = batch.order[i] as number;
    if (order % 2 !== 0) continue;
    const task = batch.tasks[i] as TaskRecord;
    const at = batch.at[i] as number;
    if (!task.ended && task.endAt >= at && task.endAt <= now) batch.add(task.endAt, order + 1, task);
  }
  apply(env, now, batch, sortedPositions(batch));
}

/** The moves in order, as settleDue applies them; an end beyond `now` goes back into the queue. */
function apply(env: TaskEnv, now: number, batch: Batch, positions: ArrayLike<number>): void {
  const { due, accounts } = env.state;
  const { at: times, order: orders, tasks } = batch;
  const tell = env.quietMoves?.() !== true;
  let accountId: string | undefined;
  let account: Account | undefined;
  for (let k = 0; k < positions.length; k++) {
    const i = positions[k] as number;
    const task = tasks[i] as TaskRecord;
    // A task dropped (retention) or ended early (control API) has ended: its planned moves change nothing.
    if (task.ended) continue;
    if (task.accountId !== accountId) {
      accountId = task.accountId;
      account = accounts.get(accountId);
    }
    const at = times[i] as number;
    if ((orders[i] as number) % 2 !== 0) {
      end(env, task, at, account, task.outcome, undefined, tell);
      continue;
    }
    if (account) syncPeriod(account, at);
    start(env, task, at, account, tell);
    // An end before its start would be the earliest move left: popped next. A later one beyond `now` is queued.
    if (task.endAt < at) end(env, task, task.endAt, account, task.outcome, undefined, tell);
    else if (task.endAt > now) due.push(task.endAt, task, task.seq, 'end');
  }
}
