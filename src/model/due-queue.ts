/**
 * The planned task moves, earliest first: a binary min-heap kept in three parallel arrays (time, order, task id), so
 * that a queued task costs two array slots per move and no object. Ties in time keep the order of `order` (a task's
 * `seq * 2`, `+ 1` for its end), which is the order in which the moves were planned.
 */
export type Move = 'start' | 'end';

export class DueQueue {
  private at: number[] = [];
  private order: number[] = [];
  private ids: string[] = [];

  get size(): number {
    return this.at.length;
  }

  /** The time of the earliest move, or Infinity when none is planned. */
  peekAt(): number {
    return this.at.length > 0 ? this.at[0]! : Infinity;
  }

  push(at: number, taskId: string, seq: number, move: Move): void {
    const order = seq * 2 + (move === 'end' ? 1 : 0);
    let i = this.at.length;
    this.at.push(at);
    this.order.push(order);
    this.ids.push(taskId);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(at, order, parent)) break;
      this.place(i, parent);
      i = parent;
    }
    this.set(i, at, order, taskId);
  }

  /**
   * Removes the earliest move if it is due at `now` and hands it to `visit` (task id, time, move); false when none is.
   */
  popDue(now: number, visit: (taskId: string, at: number, move: Move) => void): boolean {
    const atOf = this.at;
    const orderOf = this.order;
    const ids = this.ids;
    const size = atOf.length;
    if (size === 0 || atOf[0]! > now) return false;
    const at = atOf[0]!;
    const id = ids[0]!;
    const move: Move = (orderOf[0]! & 1) === 1 ? 'end' : 'start';
    const lastAt = atOf.pop()!;
    const lastOrder = orderOf.pop()!;
    const lastId = ids.pop()!;
    const n = size - 1;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        let m = l;
        if (r < n && (atOf[r]! < atOf[l]! || (atOf[r] === atOf[l] && orderOf[r]! < orderOf[l]!))) m = r;
        const mAt = atOf[m]!;
        if (!(mAt < lastAt || (mAt === lastAt && orderOf[m]! < lastOrder))) break;
        atOf[i] = mAt;
        orderOf[i] = orderOf[m]!;
        ids[i] = ids[m]!;
        i = m;
      }
      atOf[i] = lastAt;
      orderOf[i] = lastOrder;
      ids[i] = lastId;
    }
    visit(id, at, move);
    return true;
  }

  clear(): void {
    this.at = [];
    this.order = [];
    this.ids = [];
  }

  /** Whether (at, order) comes before slot `j`. */
  private before(at: number, order: number, j: number): boolean {
    const atJ = this.at[j]!;
    return at < atJ || (at === atJ && order < this.order[j]!);
  }

  private place(to: number, from: number): void {
    this.at[to] = this.at[from]!;
    this.order[to] = this.order[from]!;
    this.ids[to] = this.ids[from]!;
  }

  private set(i: number, at: number, order: number, id: string): void {
    this.at[i] = at;
    this.order[i] = order;
    this.ids[i] = id;
  }
}
