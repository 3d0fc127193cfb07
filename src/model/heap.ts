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
    const entry = { at, seq: this.seq++, item };
    const a = this.items;
    a.push(entry);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(a[i]!, a[parent]!)) break;
      [a[i], a[parent]] = [a[parent]!, a[i]!];
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
        if (l < a.length && less(a[l]!, a[m]!)) m = l;
        if (r < a.length && less(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }

  clear(): void {
    this.items = [];
    this.seq = 0;
  }
}

function less<T>(x: Due<T>, y: Due<T>): boolean {
  return x.at < y.at || (x.at === y.at && x.seq < y.seq);
}
