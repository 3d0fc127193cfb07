/** Items per chunk: 32 KiB of references, a regular object to V8 (a bigger array is a large object of its own). */
const CHUNK = 8192;

/**
 * A first-in first-out list (the finished tasks, in the order they finished): fixed-size chunks, the
 * oldest first, and a head index into the first. Adding costs an array push into a small array; the list never
 * copies what it holds (one growing array is reallocated and copied as it grows, which a `clock.advance` that
 * finishes many tasks at once would pay for), and a chunk is let go once taken.
 */
export class Fifo<T> {
  private chunks: T[][] = [];
  private head = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(item: T): void {
    let last = this.chunks[this.chunks.length - 1];
    if (last === undefined || last.length === CHUNK) {
      last = [];
      this.chunks.push(last);
    }
    last.push(item);
    this.count += 1;
  }

  /** Removes and returns the oldest item (undefined when empty). */
  shift(): T | undefined {
    const first = this.chunks[0];
    if (first === undefined || this.count === 0) return undefined;
    const item = first[this.head] as T;
    this.head += 1;
    this.count -= 1;
    if (this.head === first.length && (first.length === CHUNK || this.count === 0)) {
      this.chunks.shift();
      this.head = 0;
    }
    return item;
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let c = 0; c < this.chunks.length; c++) {
      const chunk = this.chunks[c] as T[];
      for (let i = c === 0 ? this.head : 0; i < chunk.length; i++) yield chunk[i] as T;
    }
  }
}
