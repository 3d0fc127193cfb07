/**
 * The planned task moves, earliest first: a four-ary min-heap (fewer levels, each in one cache line) kept in parallel
 * arrays (time and order in one growable Float64Array, the task itself in a plain array), so that a queued task costs
 * two slots per move and no object, and a settled move needs no lookup by id. Ties in time keep the order of `order`
 * (a task's `seq * 2`, `+ 1` for its end), which is the order in which the moves were planned.
 *
 * Starts are planned in the order tasks are created, mostly at nondecreasing times: those that do not go before the
 * last one queued wait in a plain first-in first-out run beside the heap (O(1) each, no sifting); the heap holds the
 * rest (ends, and starts planned out of order, as the `slow-tasks` scenario or a clock set back make them). The run
 * stays because it makes a big `clock.advance` markedly faster (docs/decisions/performance.md). Webhook deliveries use
 * the same queue: it is the one priority queue of the sandbox.
 */
export type Move = 'start' | 'end';

const INITIAL = 64;

export class DueQueue<T> {
  /** Slot i: keys[2i] = time, keys[2i + 1] = order. */
  private keys = new Float64Array(2 * INITIAL);
  private items: T[] = [];
  private n = 0;
  private run = new Run<T>();
  /** The time of the move `popDue` returned last. */
  poppedAt = 0;
  /** Whether the move `popDue` returned last is an end (else a start). */
  poppedEnd = false;

  get size(): number {
    return this.n + this.run.size;
  }

  /** The time of the earliest move, or Infinity when none is planned. */
  peekAt(): number {
    return Math.min(this.n > 0 ? (this.keys[0] ?? Infinity) : Infinity, this.run.headAt());
  }

  push(at: number, item: T, seq: number, move: Move): void {
    const order = seq * 2 + (move === 'end' ? 1 : 0);
    if (move === 'start' && this.run.accepts(at, order)) {
      this.run.push(at, order, item);
      return;
    }
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
      const parent = (i - 1) >> 2;
      const pAt = keys[2 * parent] as number;
      const pOrder = keys[2 * parent + 1] as number;
      if (!(at < pAt || (at === pAt && order < pOrder))) break;
      this.put(i, pAt, pOrder, items[parent] as T);
      i = parent;
    }
    this.put(i, at, order, item);
  }

  /** The item of the earliest move (its time is `peekAt()`), or undefined when none is planned. */
  peek(): T | undefined {
    const at = this.n > 0 ? (this.keys[0] ?? Infinity) : Infinity;
    if (this.runFirst(at, this.run.headAt())) return this.run.headItem();
    return this.n > 0 ? this.items[0] : undefined;
  }

  /** Whether the run's head goes before the heap's root (`at`: its time, Infinity when empty). */
  private runFirst(at: number, runAt: number): boolean {
    return runAt < at || (runAt === at && runAt !== Infinity && this.run.headOrder() < (this.keys[1] as number));
  }

  /** Writes slot i. */
  private put(i: number, at: number, order: number, item: T): void {
    this.keys[2 * i] = at;
    this.keys[2 * i + 1] = order;
    this.items[i] = item;
  }

  /**
   * Removes the earliest move if it is due at `now` and returns its item (its time and kind in `poppedAt` and
   * `poppedEnd`); undefined when none is due.
   */
  popDue(now: number): T | undefined {
    const keys = this.keys;
    const items = this.items;
    const at = this.n > 0 ? (keys[0] ?? Infinity) : Infinity;
    const runAt = this.run.headAt();
    if (this.runFirst(at, runAt)) {
      if (runAt > now) return undefined;
      this.poppedAt = runAt;
      this.poppedEnd = false;
      return this.run.shift();
    }
    if (at > now) return undefined;
    const item = items[0] as T;
    this.poppedAt = at;
    this.poppedEnd = ((keys[1] as number) & 1) === 1;
    const n = --this.n;
    const lastAt = keys[2 * n] as number;
    const lastOrder = keys[2 * n + 1] as number;
    const lastItem = items.pop() as T;
    if (n > 0) this.siftDown(lastAt, lastOrder, lastItem);
    return item;
  }

  /** Puts (at, order, item) into the hole at slot `from` (the root unless given) of the heap's `n` slots. */
  private siftDown(at: number, order: number, item: T, from = 0): void {
    const n = this.n;
    const keys = this.keys;
    const items = this.items;
    let i = from;
    for (;;) {
      // The earliest of up to four children (their keys share one 64-byte line).
      const first = 4 * i + 1;
      if (first >= n) break;
      const last = Math.min(first + 4, n);
      let m = first;
      let mAt = keys[2 * first] as number;
      let mOrder = keys[2 * first + 1] as number;
      for (let c = first + 1; c < last; c++) {
        const cAt = keys[2 * c] as number;
        const cOrder = keys[2 * c + 1] as number;
        if (cAt < mAt || (cAt === mAt && cOrder < mOrder)) {
          m = c;
          mAt = cAt;
          mOrder = cOrder;
        }
      }
      if (!(mAt < at || (mAt === at && mOrder < order))) break;
      this.put(i, mAt, mOrder, items[m] as T);
      i = m;
    }
    this.put(i, at, order, item);
  }

  /**
   * How many moves are due at `now`, counted up to `enough`: a search of the run and a walk of the heap's due top
   * (a node is due only if its parent is), so the count costs about as much as the moves it counts, never a scan.
   */
  countDue(now: number, enough: number): number {
    let count = this.run.countDue(now);
    const keys = this.keys;
    if (this.n === 0 || (keys[0] as number) > now) return count;
    const stack = [0];
    while (stack.length > 0 && count < enough) {
      const i = stack.pop() as number;
      count += 1;
      const last = Math.min(4 * i + 5, this.n);
      for (let c = 4 * i + 1; c < last; c++) if ((keys[2 * c] as number) <= now) stack.push(c);
    }
    return count;
  }

  /**
   * Takes every move due at `now` out of the queue, in no particular order, giving each to `take` (its time, its
   * order as `push` made it: `seq * 2`, `+ 1` for an end); the heap is rebuilt from the rest in O(n).
   */
  takeDue(now: number, take: (at: number, order: number, item: T) => void): void {
    this.run.takeDue(now, take);
    const keys = this.keys;
    const items = this.items;
    let kept = 0;
    for (let i = 0; i < this.n; i++) {
      const at = keys[2 * i] as number;
      const order = keys[2 * i + 1] as number;
      const item = items[i] as T;
      if (at <= now) take(at, order, item);
      else this.put(kept++, at, order, item);
    }
    this.n = kept;
    items.length = kept;
    // Heapify: sift each parent down, the last first.
    for (let i = (kept - 2) >> 2; i >= 0; i--)
      this.siftDown(keys[2 * i] as number, keys[2 * i + 1] as number, items[i] as T, i);
  }

  clear(): void {
    this.keys = new Float64Array(2 * INITIAL);
    this.items = [];
    this.n = 0;
    this.run = new Run<T>();
  }
}

/** A first-in first-out list of moves in nondecreasing (time, order). */
class Run<T> {
  private keys = new Float64Array(2 * INITIAL);
  private items: (T | undefined)[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  headAt(): number {
    return this.head < this.items.length ? (this.keys[2 * this.head] ?? Infinity) : Infinity;
  }

  headItem(): T | undefined {
    return this.items[this.head];
  }

  headOrder(): number {
    return this.keys[2 * this.head + 1] as number;
  }

  /** Whether (at, order) goes after the last move queued. */
  accepts(at: number, order: number): boolean {
    const last = this.items.length - 1;
    if (last < this.head) return true;
    const lastAt = this.keys[2 * last] as number;
    return at > lastAt || (at === lastAt && order > (this.keys[2 * last + 1] as number));
  }

  push(at: number, order: number, item: T): void {
    if (this.head > 0 && this.head === this.items.length) {
      this.head = 0;
      this.items.length = 0;
    }
    // Growing may move the live moves to the front: the slot is known only after it.
    if (2 * (this.items.length + 1) > this.keys.length) this.grow();
    const i = this.items.length;
    this.keys[2 * i] = at;
    this.keys[2 * i + 1] = order;
    this.items.push(item);
  }

  /** How many moves are due at `now` (the run's times do not decrease: a binary search). */
  countDue(now: number): number {
    let lo = this.head;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.keys[2 * mid] as number) <= now) lo = mid + 1;
      else hi = mid;
    }
    return lo - this.head;
  }

  /** Takes the moves due at `now` from the front (the taken slots are let go at once, not one by one). */
  takeDue(now: number, take: (at: number, order: number, item: T) => void): void {
    const keys = this.keys;
    const items = this.items;
    const start = this.head;
    const end = start + this.countDue(now);
    for (let i = start; i < end; i++) take(keys[2 * i] as number, keys[2 * i + 1] as number, items[i] as T);
    if (end === items.length) {
      this.head = 0;
      items.length = 0;
      return;
    }
    items.fill(undefined, start, end);
    this.head = end;
    if (end > 1024 && end * 2 > items.length) this.compact();
  }

  shift(): T | undefined {
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.items.length) this.compact();
    return item;
  }

  /** Doubles the key space, or moves the live moves to the front when the taken ones fill half of it. */
  private grow(): void {
    if (this.head * 2 >= this.items.length && this.head > 0) return this.compact();
    const bigger = new Float64Array(this.keys.length * 2);
    bigger.set(this.keys);
    this.keys = bigger;
  }

  private compact(): void {
    this.keys.copyWithin(0, 2 * this.head, 2 * this.items.length);
    this.items = this.items.slice(this.head);
    this.head = 0;
  }
}
