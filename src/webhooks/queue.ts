/** The delivery queue: pending deliveries by the sandbox time they fall due (equal times keep their order). */
import { MinHeap } from '../model/heap.js';
import type { Delivery } from './journal.js';

export class DeliveryQueue {
  private readonly heap = new MinHeap<Delivery>();

  /** Makes `d` due at `at` (an earlier entry of it goes stale and is skipped). */
  schedule(d: Delivery, at: number): void {
    d.dueAt = at;
    this.heap.push(at, d);
  }

  clear(): void {
    this.heap.clear();
  }

  /** The next delivery due at `now`, or undefined; with `take`, removes it from the queue. */
  due(now: number, take: boolean): Delivery | undefined {
    for (let top = this.heap.peek(); top; top = this.heap.peek()) {
      const d = top.item;
      if (d.status !== 'pending' || d.dueAt !== top.at) {
        this.heap.pop(); // stale: rescheduled, in flight or finished
        continue;
      }
      if (top.at > now) return undefined;
      if (take) this.heap.pop();
      return d;
    }
    return undefined;
  }

  /** Everything due at `now`, by endpoint, each endpoint's in the order they fell due. */
  takeDue(now: number): Map<string, Delivery[]> {
    const lanes = new Map<string, Delivery[]>();
    for (let d = this.due(now, true); d; d = this.due(now, true)) {
      const lane = lanes.get(d.endpointId);
      if (lane) lane.push(d);
      else lanes.set(d.endpointId, [d]);
    }
    return lanes;
  }
}
