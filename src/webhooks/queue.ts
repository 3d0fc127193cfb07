/** The delivery queue: pending deliveries by the sandbox time they fall due (equal times keep their order). */
import { DueQueue } from '../model/due-queue.js';
import type { Delivery } from './journal.js';

export class DeliveryQueue {
  private readonly queue = new DueQueue<Delivery>();
  /** Order of scheduling: ties in time keep it. */
  private seq = 0;

  /** Makes `d` due at `at` (an earlier entry of it goes stale and is skipped). */
  schedule(d: Delivery, at: number): void {
    d.dueAt = at;
    this.queue.push(at, d, ++this.seq, 'start');
  }

  clear(): void {
    this.queue.clear();
    this.seq = 0;
  }

  /** The next delivery due at `now`, or undefined; with `take`, removes it from the queue. */
  due(now: number, take: boolean): Delivery | undefined {
    for (let d = this.queue.peek(); d; d = this.queue.peek()) {
      const at = this.queue.peekAt();
      if (d.status !== 'pending' || d.dueAt !== at) {
        this.queue.popDue(Infinity); // stale: rescheduled, in flight or finished
        continue;
      }
      if (at > now) return undefined;
      if (take) this.queue.popDue(now);
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
