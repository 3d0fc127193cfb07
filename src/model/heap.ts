/** A binary min-heap ordered by `at`, then by insertion order (so equal times keep their order). */
export interface Due<T> {
  at: number;
  seq: number;
  item: T;
}

export class MinHeap<T> {
  private items: Due<T>[] = [];
  private seq = 0;

  get size(): number {
    return this.items.length;
  }

  push(at: number, item: T): void {
    const a = this.items;
    a.push({ at, seq: this.seq++, item });
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  peek(): Due<T> | undefined {
    return this.items[0];
  }

  pop(): Due<T> | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.less(l, m)) m = l;
        if (r < a.length && this.less(r, m)) m = r;
        if (m === i) break;
        this.swap(i, m);
        i = m;
      }
    }
    return top;
  }

  clear(): void {
    this.items = [];
    this.seq = 0;
  }

  /** Whether entry i goes before entry j (both exist). */
  private less(i: number, j: number): boolean {
    const x = this.items[i];
    const y = this.items[j];
    return x !== undefined && y !== undefined && (x.at < y.at || (x.at === y.at && x.seq < y.seq));
  }

  private swap(i: number, j: number): void {
    const a = this.items;
    const x = a[i];
    const y = a[j];
    if (x === undefined || y === undefined) return;
    a[i] = y;
    a[j] = x;
  }
}
