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

/** From this many due moves on (or an eighth of the queue, if more than 256), a settle takes them in bulk. */
export const BULK_MIN = 4096;

/** The due moves: time and order in growable typed arrays, the task at the same position. */
class Batch {
  at: Float64Array;
  order: Float64Array;
  tasks: TaskRecord[] = [];
  n = 0;
  /** Whether every time is an integer (so that time and order pack into one double). */
  integral = true;

  /** Room for `size` moves (the moves queued and the ends of those that start: twice the queue at most). */
  constructor(size: number) {
    this.at = new Float64Array(Math.max(size, 16));
    this.order = new Float64Array(Math.max(size, 16));
  }

  add(at: number, order: number, task: TaskRecord): void {
    if (this.n === this.at.length) {
      const at2 = new Float64Array(this.n * 2);
      at2.set(this.at);
      this.at = at2;
      const order2 = new Float64Array(this.n * 2);
      order2.set(this.order);
      this.order = order2;
    }
    this.at[this.n] = at;
    this.order[this.n] = order;
    this.tasks.push(task);
    this.n += 1;
    if (!Number.isInteger(at)) this.integral = false;
  }
}

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

/**
 * The positions of the batch in (time, order) order, by radix sorts (no comparison sort, which costs ~30 ms for 200k
 * moves): first by order (a table indexed by order, which is unique), then stable counting passes over the time's
 * offset in 16-bit digits. Fractional times, times more than 49 days apart, or orders spread far wider than the
 * batch take a comparator sort.
 */
function sortedPositions(batch: Batch): ArrayLike<number> {
  const { n, at, order } = batch;
  let minAt = Infinity;
  let maxAt = -Infinity;
  let minOrder = Infinity;
  let maxOrder = -Infinity;
  for (let i = 0; i < n; i++) {
    const a = at[i] as number;
    const o = order[i] as number;
    if (a < minAt) minAt = a;
    if (a > maxAt) maxAt = a;
    if (o < minOrder) minOrder = o;
    if (o > maxOrder) maxOrder = o;
  }
  const orders = maxOrder - minOrder + 1;
  if (!batch.integral || orders > 8 * n + 65_536 || maxAt - minAt >= 2 ** 32) {
    const positions = Array.from({ length: n }, (_, i) => i);
    return positions.sort(
      (x, y) => (at[x] as number) - (at[y] as number) || (order[x] as number) - (order[y] as number),
    );
  }
  const byOrder = new Int32Array(orders).fill(-1);
  const offsets = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    byOrder[(order[i] as number) - minOrder] = i;
    offsets[i] = (at[i] as number) - minAt;
  }
  let positions = new Int32Array(n);
  let k = 0;
  for (let o = 0; o < orders; o++) if ((byOrder[o] as number) >= 0) positions[k++] = byOrder[o] as number;
  let spare = new Int32Array(n);
  const counts = new Int32Array(65_536);
  for (let shift = 0; shift < 32 && (maxAt - minAt) / 2 ** shift >= 1; shift += 16) {
    counts.fill(0);
    for (let i = 0; i < n; i++) {
      const d = ((offsets[i] as number) >>> shift) & 0xffff;
      counts[d] = (counts[d] as number) + 1;
    }
    for (let d = 0, sum = 0; d < 65_536; d++) {
      const c = counts[d] as number;
      counts[d] = sum;
      sum += c;
    }
    for (let j = 0; j < n; j++) {
      const i = positions[j] as number;
      const d = ((offsets[i] as number) >>> shift) & 0xffff;
      const slot = counts[d] as number;
      counts[d] = slot + 1;
      spare[slot] = i;
    }
    [positions, spare] = [spare, positions];
  }
  return positions;
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
