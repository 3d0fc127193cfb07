/**
 * A first-in first-out list of strings (the ids of finished tasks, in the order they finished): an array and a head
 * index, compacted once half of it has been taken, so that adding costs an array push rather than a Set insert.
 */
export class Fifo {
  private items: string[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  add(item: string): void {
    this.items.push(item);
  }

  /** Removes and returns the oldest item (undefined when empty). */
  shift(): string | undefined {
    const item = this.items[this.head];
    if (item === undefined) return undefined;
    this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  *[Symbol.iterator](): IterableIterator<string> {
    for (let i = this.head; i < this.items.length; i++) {
      const item = this.items[i];
      if (item !== undefined) yield item;
    }
  }
}
