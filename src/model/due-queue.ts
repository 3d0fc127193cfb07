/**
 * The planned task moves, earliest first: a binary min-heap kept in parallel arrays (time and order in one growable
 * Float64Array, the task itself in a plain array), so that a queued task costs two slots per move and no object, and
 * a settled move needs no lookup by id. Ties in time keep the order of `order` (a task's `seq * 2`, `+ 1` for its
 * end), which is the order in which the moves were planned.
 */
export type Move = 'start' | 'end';

const INITIAL = 64;

export class DueQueue<T> {
  /** Slot i: keys[2i] = time, keys[2i + 1] = order. */
  private keys = new Float64Array(2 * INITIAL);
  private items: T[] = [];
  private n = 0;

  get size(): number {
    return this.n;
  }

  /** The time of the earliest move, or Infinity when none is planned. */
  peekAt(): number {
    return this.n > 0 ? this.keys[0]! : Infinity;
  }

  push(at: number, item: T, seq: number, move: Move): void {
    const order = seq * 2 + (move === 'end' ? 1 : 0);
    if (2 * (this.n + 1) > this.keys.length) {
      const bigger = new Float64Array(this.keys.length * 2);
      bigger.set(this.keys);
      this.keys = bigger;
    }
    const keys = this.keys;
    const items = this.items;
    let i = this.n++;
    items.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pAt = keys[2 * parent]!;
      if (!(at < pAt || (at === pAt && order < keys[2 * parent + 1]!))) break;
      keys[2 * i] = pAt;
      keys[2 * i + 1] = keys[2 * parent + 1]!;
      items[i] = items[parent]!;
      i = parent;
    }
    keys[2 * i] = at;
    keys[2 * i + 1] = order;
    items[i] = item;
  }

  /**
   * Removes the earliest move if it is due at `now` and hands it to `visit` (the item, time, move); false when none is.
   */
  popDue(now: number, visit: (item: T, at: number, move: Move) => void): boolean {
    const keys = this.keys;
    const items = this.items;
    if (this.n === 0 || keys[0]! > now) return false;
    const at = keys[0]!;
    const item = items[0]!;
    const move: Move = (keys[1]! & 1) === 1 ? 'end' : 'start';
    const n = --this.n;
    const lastAt = keys[2 * n]!;
    const lastOrder = keys[2 * n + 1]!;
    const lastItem = items.pop()!;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        let m = l;
        let mAt = keys[2 * l]!;
        let mOrder = keys[2 * l + 1]!;
        if (r < n) {
          const rAt = keys[2 * r]!;
          const rOrder = keys[2 * r + 1]!;
          if (rAt < mAt || (rAt === mAt && rOrder < mOrder)) {
            m = r;
            mAt = rAt;
            mOrder = rOrder;
          }
        }
        if (!(mAt < lastAt || (mAt === lastAt && mOrder < lastOrder))) break;
        keys[2 * i] = mAt;
        keys[2 * i + 1] = mOrder;
        items[i] = items[m]!;
        i = m;
      }
      keys[2 * i] = lastAt;
      keys[2 * i + 1] = lastOrder;
      items[i] = lastItem;
    }
    visit(item, at, move);
    return true;
  }

  clear(): void {
    this.keys = new Float64Array(2 * INITIAL);
    this.items = [];
    this.n = 0;
  }
}
