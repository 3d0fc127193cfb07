/**
 * A batch of due moves taken out of the due queue at once (time and order in growable typed arrays, the task at the
 * same position, and what the move released when it is an end), and its sort by the queue's own key (time, then
 * order). Used by the bulk settles (`settle-sums.ts`).
 */
import type { TaskRecord } from '../model/task-record.js';

/** Due moves: time, order and (for an end) the hold it released, in growable typed arrays; the task at the same position. */
export class Batch {
  at: Float64Array;
  order: Float64Array;
  hold: Float64Array;
  tasks: TaskRecord[] = [];
  n = 0;
  /** Whether every time is an integer (so that time and order pack into one double). */
  integral = true;
  /** Whether the moves were added in increasing order (then one stable pass by time sorts them). */
  ordered = true;

  /** Room for `size` moves (the moves queued and the ends of those that start: twice the queue at most). */
  constructor(size: number) {
    this.at = new Float64Array(Math.max(size, 16));
    this.order = new Float64Array(Math.max(size, 16));
    this.hold = new Float64Array(Math.max(size, 16));
  }

  /**
   * A batch of the given tasks (kept as the batch's own list, not copied), each with its time, order and hold: one
   * pass over typed arrays sized once.
   */
  static of(
    tasks: TaskRecord[],
    atOf: (i: number) => number,
    orderOf: (task: TaskRecord) => number,
    holdOf: (task: TaskRecord) => number,
  ): Batch {
    const batch = new Batch(tasks.length);
    const { at, order, hold } = batch;
    let ordered = true;
    let integral = true;
    for (let i = 0; i < tasks.length; i++) {
      const task = tasks[i] as TaskRecord;
      const t = atOf(i);
      const o = orderOf(task);
      at[i] = t;
      order[i] = o;
      hold[i] = holdOf(task);
      if (i > 0 && o < (order[i - 1] as number)) ordered = false;
      if (!Number.isInteger(t)) integral = false;
    }
    batch.tasks = tasks;
    batch.n = tasks.length;
    batch.ordered = ordered;
    batch.integral = integral;
    return batch;
  }

  add(at: number, order: number, task: TaskRecord, hold = 0): void {
    if (this.n === this.at.length) {
      this.at = grown(this.at);
      this.order = grown(this.order);
      this.hold = grown(this.hold);
    }
    this.at[this.n] = at;
    this.order[this.n] = order;
    this.hold[this.n] = hold;
    if (this.n > 0 && order < (this.order[this.n - 1] as number)) this.ordered = false;
    this.tasks.push(task);
    this.n += 1;
    if (!Number.isInteger(at)) this.integral = false;
  }
}

function identity(n: number): Int32Array<ArrayBuffer> {
  const positions = new Int32Array(n);
  for (let i = 0; i < n; i++) positions[i] = i;
  return positions;
}

/** The positions in increasing order: a table indexed by order, which is unique. */
function byOrder(batch: Batch, minOrder: number, orders: number): Int32Array<ArrayBuffer> {
  const { n, order } = batch;
  const table = new Int32Array(orders).fill(-1);
  for (let i = 0; i < n; i++) table[(order[i] as number) - minOrder] = i;
  const positions = new Int32Array(n);
  let k = 0;
  for (let o = 0; o < orders; o++) if ((table[o] as number) >= 0) positions[k++] = table[o] as number;
  return positions;
}

function grown(values: Float64Array): Float64Array {
  const bigger = new Float64Array(values.length * 2);
  bigger.set(values);
  return bigger;
}

/**
 * The positions of the batch in (time, order) order, by radix sorts (a comparison sort is the larger part of a big
 * jump's settle): first by order (a table indexed by order, which is unique; nothing to do when added in order), then
 * stable counting passes over the time's offset in 16-bit digits. Fractional times, times more than 49 days apart, or orders spread far wider than the
 * batch take a comparator sort.
 */
export function sortedPositions(batch: Batch): ArrayLike<number> {
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
  const offsets = new Uint32Array(n);
  for (let i = 0; i < n; i++) offsets[i] = (at[i] as number) - minAt;
  let positions = batch.ordered ? identity(n) : byOrder(batch, minOrder, orders);
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
