/**
 * The delivery loop: takes what falls due on the sandbox clock, makes the attempts (endpoints in parallel, each
 * endpoint's messages in order), and under a real clock wakes itself at the next thing due.
 */
import type { Engine } from '../core/engine.js';
import { attempt } from './delivery.js';
import type { Delivery, DeliveryJournal, Endpoint } from './journal.js';
import { DeliveryQueue } from './queue.js';
import type { WebhookSettings } from './settings.js';
import { refusedUrl } from './url-guard.js';
import { deadline, WakeTimer } from './wake-timer.js';

/** What the loop works with: the sandbox, how to settle due task moves, the settings, the deliveries and endpoints. */
export interface LoopParts {
  engine: Engine;
  settle: () => void;
  config: WebhookSettings;
  journal: DeliveryJournal;
  endpoints: ReadonlyMap<string, Endpoint>;
  owner: object;
}

export class DeliveryLoop {
  private readonly queue = new DeliveryQueue();
  /** Bumped by stop(): attempts in flight from before are dropped. */
  private generation = 0;
  private running: Promise<void> | undefined;
  private again = false;
  /** Real clock only: wakes at the next task move or delivery, settles and delivers. */
  private readonly wake = new WakeTimer(() => {
    this.settle();
    this.kick();
  });

  private readonly engine: Engine;
  /** Settles the task moves due at the clock's time. */
  private readonly settle: () => void;
  private readonly config: WebhookSettings;
  private readonly journal: DeliveryJournal;
  private readonly endpoints: ReadonlyMap<string, Endpoint>;
  /** Whose url guards apply (the dispatcher). */
  private readonly owner: object;

  constructor(parts: LoopParts) {
    ({
      engine: this.engine,
      settle: this.settle,
      config: this.config,
      journal: this.journal,
      endpoints: this.endpoints,
      owner: this.owner,
    } = parts);
  }

  /** Makes `d` due at sandbox time `at`. */
  schedule(d: Delivery, at: number): void {
    this.queue.schedule(d, at);
  }

  /** Runs the loop now (or once more, when it is running). */
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.again = false;
    this.running = (async () => {
      await Promise.resolve(); // the loop starts after the request that kicked it
      do {
        for (let batch = this.takeDue(); batch.size > 0; batch = this.takeDue()) {
          await Promise.all(
            [...batch.values()].map(async (lane) => {
              for (const d of lane) await this.attempt(d);
            }),
          );
        }
      } while (this.takeAgain());
    })().finally(() => {
      this.running = undefined;
      this.arm();
    });
  }

  /** Real clock only: the wake-up follows the next task move or delivery. */
  arm(): void {
    if (this.engine.clock.mode !== 'real' || this.endpoints.size === 0) return this.wake.clear();
    const nextDelivery = this.queue.due(Infinity, false)?.dueAt ?? Infinity;
    this.wake.set(Math.min(this.engine.state.due.peekAt(), nextDelivery), this.engine.clock.now());
  }

  /** Forgets the queue and drops the attempts in flight (reset, load). */
  stop(): void {
    this.generation += 1;
    this.wake.clear();
    this.queue.clear();
  }

  /** Delivers what is due and waits for it, for at most `flushTimeoutMs` in all. */
  async flush(): Promise<void> {
    this.settle();
    const bound = deadline(this.config.flushTimeoutMs);
    try {
      for (;;) {
        if (!this.running && !this.queue.due(this.engine.clock.now(), false)) return;
        this.kick();
        if ((await Promise.race([this.running, bound.reached])) === 'bound') return;
      }
    } finally {
      bound.cancel();
    }
  }

  private takeDue(): Map<string, Delivery[]> {
    return this.queue.takeDue(this.engine.clock.now());
  }

  /** Whether something fell due while the loop ran (the flag is cleared). */
  private takeAgain(): boolean {
    const again = this.again;
    this.again = false;
    return again;
  }

  private async attempt(d: Delivery): Promise<void> {
    const generation = this.generation;
    const clock = this.engine.clock;
    // Under a manual clock an attempt happens when the clock reaches it, so its time is the time it fell due.
    const at = clock.mode === 'manual' && d.dueAt !== null ? d.dueAt : clock.now();
    d.dueAt = null;
    const endpoint = this.endpoints.get(d.endpointId);
    if (!endpoint) {
      d.status = 'failed';
      return;
    }
    const ended = await attempt(d, endpoint, at, {
      seed: this.engine.seed,
      settings: this.config,
      refused: (url) => refusedUrl(this.owner, url),
      current: () => generation === this.generation,
      retry: (later, when) => this.queue.schedule(later, when),
      accepted: (faulty, fault) => this.engine.audit?.observeHandler?.(fault, faulty.accountId, faulty.event.id),
    });
    if (ended) this.journal.prune();
  }
}
