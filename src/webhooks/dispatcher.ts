/**
 * Webhooks: task moves and low balances become signed messages, queued per endpoint and delivered on the sandbox
 * clock. Events are made synchronously inside the request core (exactly once per move, in order); signing (Web
 * Crypto) and sending (fetch or a callback) are async, so they happen in a delivery loop that `flush()` awaits.
 */
import type { Engine } from '../core/engine.js';
import { SandboxError } from '../errors.js';
import { parseInput, webhookUrl } from '../schemas.js';
import { MinHeap } from '../model/heap.js';
import { usdToNano } from '../model/money.js';
import { PLANS } from '../model/plans.js';
import { hash53, seededId } from '../model/random.js';
import type { WebhookSnapshot } from '../model/snapshot-schema.js';
import type { Account } from '../model/types.js';
import type { Effects } from '../rules/effects.js';
import type { TaskEvent } from '../rules/tasks.js';
import { creditsLowEvent, isWebhookEventType, sampleEvent, taskEvent, type WebhookEvent, type WebhookEventType } from './events.js';
import { DEFAULT_DELIVERY, retryDelay, type DeliverySettings } from './retry.js';
import { send, type WebhookCallback, type WebhookRequest } from './send.js';
import { refusedUrl, WEBHOOK_USER_AGENT } from './url-guard.js';
import { importKey, secretBytes, seededSecret, sign, wrongKeyBytes } from './signature.js';
import type { AddWebhookInput, DeliveryAttempt, DeliveryFilter, DeliveryStatus, SandboxWebhooks, WebhookDelivery, WebhookEndpoint, WebhookOptions } from './types.js';

interface Endpoint {
  id: string;
  accountId: string;
  url: string | null;
  callback?: WebhookCallback;
  secret: string;
  bytes: Uint8Array<ArrayBuffer>;
  key?: Promise<CryptoKey>;
  wrongKey?: Promise<CryptoKey>;
  createdAt: number;
}

interface Delivery {
  id: string;
  event: WebhookEvent;
  body: string;
  endpointId: string;
  accountId: string;
  url: string | null;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** Sandbox time of the next attempt; null while one is in flight or once finished. */
  dueAt: number | null;
  replayOf: string | null;
  createdAt: number;
  badSignature: boolean;
  duplicates: boolean;
}

export const DEFAULT_LOW_BALANCE_USD = 5;
/** The longest a flush waits, in real ms (each attempt also has its own `timeoutMs`). */
export const DEFAULT_FLUSH_TIMEOUT_MS = 30_000;
const iso = (t: number) => new Date(t).toISOString();
const MAX_TIMER_MS = 2 ** 31 - 1;

function settings(options: WebhookOptions): DeliverySettings & { flushTimeoutMs: number; lowBalanceNano: number; kept: number } {
  const s = { ...DEFAULT_DELIVERY, ...definedOnly(options) };
  const check = (ok: boolean, what: string) => {
    if (!ok) throw new SandboxError(`webhooks.${what}`);
  };
  check(Number.isInteger(s.maxAttempts) && s.maxAttempts >= 1 && s.maxAttempts <= 50, `maxAttempts must be an integer from 1 to 50.`);
  check(Number.isFinite(s.retryBaseMs) && s.retryBaseMs >= 0, `retryBaseMs must be a number of milliseconds ≥ 0.`);
  check(Number.isFinite(s.timeoutMs) && s.timeoutMs > 0, `timeoutMs must be a number of milliseconds > 0.`);
  const low = options.lowBalanceUsd ?? DEFAULT_LOW_BALANCE_USD;
  check(typeof low === 'number' && Number.isFinite(low) && low >= 0, `lowBalanceUsd must be a number ≥ 0.`);
  const flushTimeoutMs = options.flushTimeoutMs ?? DEFAULT_FLUSH_TIMEOUT_MS;
  check(Number.isFinite(flushTimeoutMs) && flushTimeoutMs > 0, `flushTimeoutMs must be a number of milliseconds > 0.`);
  const kept = options.deliveriesKept ?? 1000;
  check(Number.isInteger(kept) && kept >= 1, `deliveriesKept must be a positive integer.`);
  return { maxAttempts: s.maxAttempts, retryBaseMs: s.retryBaseMs, timeoutMs: s.timeoutMs, flushTimeoutMs, lowBalanceNano: usdToNano(low), kept };
}

function definedOnly(options: WebhookOptions): Partial<DeliverySettings> {
  const out: Partial<DeliverySettings> = {};
  for (const name of ['maxAttempts', 'retryBaseMs', 'timeoutMs'] as const) if (options[name] !== undefined) out[name] = options[name];
  return out;
}

export class WebhookDispatcher implements SandboxWebhooks {
  private readonly config: ReturnType<typeof settings>;
  private endpoints = new Map<string, Endpoint>();
  private journal = new Map<string, Delivery>();
  private queue = new MinHeap<Delivery>();
  /** Accounts told `credits.low` that have not been back at or above the threshold since. */
  private low = new Set<string>();
  private counters = { endpoint: 0, event: 0, delivery: 0 };
  /** Bumped by reset(): attempts in flight from before are dropped. */
  private generation = 0;
  private running: Promise<void> | undefined;
  private again = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Infinity;

  constructor(
    private readonly engine: Engine,
    /** Settles the task moves due at the clock's time (they emit events through `onTaskEvent`). */
    private readonly settle: () => void,
    private readonly options: WebhookOptions = {},
  ) {
    this.config = settings(options);
    this.registerInitial();
  }

  // ---- events (synchronous, inside the request core) ----

  /** The engine's `onTaskEvent`: one call per task move. */
  onTaskEvent(move: TaskEvent): void {
    this.emit(move.task.accountId, move.at, (id) => taskEvent(id, move.type, move.task, move.at));
    if (move.type === 'task.completed') this.checkBalance(move.task.accountId, move.at);
  }

  /** After an account's balance was set: a lower balance under the threshold sends `credits.low`. */
  balanceSet(accountId: string, previousNano: number): void {
    const account = this.engine.state.accounts.get(accountId);
    if (!account) return;
    if (account.balanceNano < previousNano) this.checkBalance(accountId, this.engine.clock.now());
    else if (account.balanceNano >= this.config.lowBalanceNano) this.low.delete(accountId);
  }

  /** The clock moved: what fell due is delivered. */
  clockMoved(): void {
    if (this.endpoints.size > 0) this.kick();
  }

  private checkBalance(accountId: string, at: number): void {
    const account = this.engine.state.accounts.get(accountId);
    if (!account) return;
    if (account.balanceNano >= this.config.lowBalanceNano) return void this.low.delete(accountId);
    if (this.low.has(accountId)) return;
    this.low.add(accountId);
    this.emit(accountId, at, (id) => creditsLowEvent(id, account, this.config.lowBalanceNano, at));
  }

  private emit(accountId: string, at: number, build: (eventId: string) => WebhookEvent): void {
    if (this.endpoints.size === 0) return;
    const account = this.engine.state.accounts.get(accountId);
    if (!account || !PLANS[account.plan].webhooks) return;
    const targets = [...this.endpoints.values()].filter((e) => e.accountId === accountId);
    if (targets.length === 0) return;
    const event = build(this.nextEventId());
    const body = JSON.stringify(event);
    const effects = this.effectsFor(accountId);
    for (const endpoint of targets) {
      const d = this.enqueue(endpoint, event, body, effects, null, at);
      if (effects.webhookDelayMs) this.reschedule(d, at + effects.webhookDelayMs + this.jitter(d, effects.webhookDelayJitterMs ?? 0));
    }
    this.kick();
  }

  private nextEventId(): string {
    return seededId('evt', this.engine.seed, `webhook-event:${++this.counters.event}`);
  }

  private effectsFor(accountId: string): Effects {
    return this.engine.scenarios.resolve(accountId, undefined, [], this.engine.seed, 0).effects;
  }

  private jitter(d: Delivery, max: number): number {
    return max > 0 ? hash53(`webhook-delay:${d.id}`, this.engine.seed) % (max + 1) : 0;
  }

  private enqueue(endpoint: Endpoint, event: WebhookEvent, body: string, effects: Effects, replayOf: string | null, at: number): Delivery {
    const d: Delivery = {
      id: seededId('dlv', this.engine.seed, `webhook-delivery:${++this.counters.delivery}`),
      event,
      body,
      endpointId: endpoint.id,
      accountId: endpoint.accountId,
      url: endpoint.url,
      status: 'pending',
      attempts: [],
      dueAt: at,
      replayOf,
      createdAt: at,
      badSignature: effects.webhookBadSignature === true,
      duplicates: effects.webhookDuplicates === true,
    };
    this.journal.set(d.id, d);
    this.queue.push(at, d);
    this.prune();
    return d;
  }

  private reschedule(d: Delivery, at: number): void {
    d.dueAt = at;
    this.queue.push(at, d);
  }

  private prune(): void {
    if (this.journal.size <= this.config.kept) return;
    for (const [id, d] of this.journal) {
      if (this.journal.size <= this.config.kept) break;
      if (d.status !== 'pending') this.journal.delete(id);
    }
  }

  // ---- delivery (async) ----

  /** The next delivery due at `now`, or undefined; with `take`, removes it from the queue. */
  private due(now: number, take: boolean): Delivery | undefined {
    for (let top = this.queue.peek(); top; top = this.queue.peek()) {
      const d = top.item;
      if (d.status !== 'pending' || d.dueAt !== top.at) {
        this.queue.pop(); // stale: rescheduled, in flight or finished
        continue;
      }
      if (top.at > now) return undefined;
      if (take) this.queue.pop();
      return d;
    }
    return undefined;
  }

  /** Everything due at the clock's time, by endpoint. */
  private takeDue(): Map<string, Delivery[]> {
    const lanes = new Map<string, Delivery[]>();
    const now = this.engine.clock.now();
    for (let d = this.due(now, true); d; d = this.due(now, true)) {
      const lane = lanes.get(d.endpointId);
      if (lane) lane.push(d);
      else lanes.set(d.endpointId, [d]);
    }
    return lanes;
  }

  private kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      await null;
      do {
        this.again = false;
        for (let batch = this.takeDue(); batch.size > 0; batch = this.takeDue()) {
          // Endpoints in parallel, each endpoint's messages one after another in the order they fell due.
          await Promise.all([...batch.values()].map(async (lane) => {
            for (const d of lane) await this.attempt(d);
          }));
        }
      } while (this.again);
    })().finally(() => {
      this.running = undefined;
      this.arm();
    });
  }

  private async attempt(d: Delivery): Promise<void> {
    const generation = this.generation;
    const clock = this.engine.clock;
    // Under a manual clock an attempt happens when the clock reaches it, so its time is the time it fell due.
    const at = clock.mode === 'manual' ? d.dueAt! : clock.now();
    d.dueAt = null;
    const endpoint = this.endpoints.get(d.endpointId);
    if (!endpoint) return void (d.status = 'failed');
    let request: WebhookRequest | undefined;
    let outcome;
    try {
      request = await this.request(endpoint, d);
      // Checked again at each attempt: an endpoint may have been added before the sandbox was served.
      const refused = endpoint.url === null ? undefined : refusedUrl(this, endpoint.url);
      outcome = refused ? { status: null, latencyMs: 0, error: `Not sent: ${refused}`, response: null } : await send(endpoint, request, this.config.timeoutMs);
    } catch (error) {
      outcome = { status: null, latencyMs: 0, error: `Could not sign the message: ${(error as Error).message}`, response: null };
    }
    if (generation !== this.generation) return;
    d.attempts.push({ at: iso(at), ...outcome, duplicate: false });
    if (d.status !== 'pending') return; // the endpoint was removed meanwhile
    const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    if (ok) {
      d.status = 'succeeded';
      if (d.duplicates && request) {
        const again = await send(endpoint, request, this.config.timeoutMs);
        if (generation === this.generation) d.attempts.push({ at: iso(at), ...again, duplicate: true });
      }
    } else if (d.attempts.filter((a) => !a.duplicate).length >= this.config.maxAttempts) {
      d.status = 'failed';
    } else {
      return this.reschedule(d, at + retryDelay(this.engine.seed, d.id, d.attempts.length, this.config.retryBaseMs));
    }
    this.prune();
  }

  /** The signed request: `webhook-timestamp` is real time, so receivers' tolerance checks pass under a manual clock. */
  private async request(endpoint: Endpoint, d: Delivery): Promise<WebhookRequest> {
    const key = d.badSignature ? (endpoint.wrongKey ??= importKey(wrongKeyBytes(endpoint.bytes))) : (endpoint.key ??= importKey(endpoint.bytes));
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = await sign(await key, d.event.id, timestamp, d.body);
    return {
      url: endpoint.url,
      headers: {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        'webhook-id': d.event.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signature,
      },
      body: d.body,
      event: d.event,
    };
  }

  /** Real clock only: a timer wakes at the next task move or delivery, settles and delivers. */
  private arm(): void {
    if (this.engine.clock.mode !== 'real' || this.endpoints.size === 0) return this.disarm();
    const nextMove = this.engine.state.due.peekAt();
    const nextDelivery = this.due(Infinity, false)?.dueAt ?? Infinity;
    const wake = Math.min(nextMove, nextDelivery);
    if (wake === Infinity) return this.disarm();
    if (this.timer !== undefined && this.timerAt <= wake) return;
    this.disarm();
    this.timerAt = wake;
    const timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.settle();
      this.kick();
    }, Math.min(MAX_TIMER_MS, Math.max(0, wake - this.engine.clock.now() + 1)));
    (timer as { unref?: () => void }).unref?.();
    this.timer = timer;
  }

  private disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  // ---- the library surface ----

  add(input: AddWebhookInput): WebhookEndpoint {
    const accountId = input?.accountId;
    const account = this.engine.state.accounts.get(accountId);
    if (!account) throw new SandboxError(`No account '${accountId}'.`, 'not_found');
    assertPlan(account);
    const hasUrl = input.url !== undefined && input.url !== null;
    if (hasUrl === (input.callback !== undefined)) throw new SandboxError('Give a webhook endpoint either a url or a callback (one of them).');
    if (input.callback !== undefined && typeof input.callback !== 'function') throw new SandboxError('callback must be a function.');
    const url = hasUrl ? parseInput(webhookUrl, input.url, 'url') : null;
    const refused = url === null ? undefined : refusedUrl(this, url);
    if (refused) throw new SandboxError(`url: ${refused}`);
    const n = ++this.counters.endpoint;
    const secret = input.secret ?? seededSecret(this.engine.seed, `endpoint:${n}`);
    const endpoint: Endpoint = {
      id: seededId('ep', this.engine.seed, `webhook-endpoint:${n}`),
      accountId: account.id,
      url,
      callback: input.callback,
      secret,
      bytes: secretBytes(secret),
      createdAt: this.engine.clock.now(),
    };
    this.endpoints.set(endpoint.id, endpoint);
    this.arm();
    return endpointView(endpoint);
  }

  list(accountId?: string): WebhookEndpoint[] {
    return [...this.endpoints.values()].filter((e) => accountId === undefined || e.accountId === accountId).map(endpointView);
  }

  remove(id: string): void {
    if (!this.endpoints.delete(id)) throw new SandboxError(`No webhook endpoint '${id}'.`, 'not_found');
    for (const d of this.journal.values()) {
      if (d.endpointId === id && d.status === 'pending') {
        d.status = 'failed';
        d.dueAt = null;
      }
    }
    this.arm();
  }

  deliveries(filter: DeliveryFilter = {}): WebhookDelivery[] {
    const out: WebhookDelivery[] = [];
    for (const d of this.journal.values()) {
      if (filter.accountId !== undefined && d.accountId !== filter.accountId) continue;
      if (filter.endpointId !== undefined && d.endpointId !== filter.endpointId) continue;
      if (filter.eventId !== undefined && d.event.id !== filter.eventId) continue;
      if (filter.status !== undefined && d.status !== filter.status) continue;
      out.push(deliveryView(d));
    }
    return out;
  }

  async replay(deliveryId: string): Promise<WebhookDelivery> {
    const original = this.journal.get(deliveryId);
    if (!original) throw new SandboxError(`No webhook delivery '${deliveryId}'.`, 'not_found');
    const endpoint = this.endpoints.get(original.endpointId);
    if (!endpoint) throw new SandboxError(`The endpoint '${original.endpointId}' of delivery '${deliveryId}' was removed.`);
    const d = this.enqueue(endpoint, original.event, original.body, this.effectsFor(endpoint.accountId), original.id, this.engine.clock.now());
    await this.flush();
    return deliveryView(d);
  }

  async test(options: { endpointId?: string; accountId?: string; type?: WebhookEventType } = {}): Promise<WebhookDelivery[]> {
    const type = options.type ?? 'task.completed';
    if (!isWebhookEventType(type)) throw new SandboxError(`type must be one of task.created, task.started, task.completed, task.failed, credits.low; got ${JSON.stringify(options.type)}.`);
    let targets = [...this.endpoints.values()];
    if (options.endpointId !== undefined) {
      targets = targets.filter((e) => e.id === options.endpointId);
      if (targets.length === 0) throw new SandboxError(`No webhook endpoint '${options.endpointId}'.`, 'not_found');
    }
    if (options.accountId !== undefined) targets = targets.filter((e) => e.accountId === options.accountId);
    if (targets.length === 0) throw new SandboxError('No webhook endpoint to test: add one first.', 'not_found');
    const now = this.engine.clock.now();
    const sent = targets.map((endpoint) => {
      const account = this.engine.state.accounts.get(endpoint.accountId)!;
      const event = sampleEvent(this.nextEventId(), type, account, this.engine.state.agents[0]?.id ?? 'agt_sample', this.config.lowBalanceNano, now);
      return this.enqueue(endpoint, event, JSON.stringify(event), this.effectsFor(endpoint.accountId), null, now);
    });
    await this.flush();
    return sent.map(deliveryView);
  }

  /**
   * Delivers what is due and waits for it, for at most `flushTimeoutMs` (default 30 s) in all: a slow receiver cannot
   * hold a flush (or a control-API call that flushes) longer. What is still in flight then goes on in the background.
   */
  async flush(): Promise<void> {
    this.settle();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<'bound'>((resolve) => {
      timer = setTimeout(() => resolve('bound'), this.config.flushTimeoutMs);
      (timer as { unref?: () => void }).unref?.();
    });
    try {
      for (;;) {
        if (!this.running && !this.due(this.engine.clock.now(), false)) return;
        this.kick();
        if ((await Promise.race([this.running, bound])) === 'bound') return;
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** The endpoints with a url and the delivery journal, as data (a callback cannot be saved: its endpoint is left out). */
  save(): WebhookSnapshot {
    const endpoints = [...this.endpoints.values()].filter((e) => e.url !== null);
    const kept = new Set(endpoints.map((e) => e.id));
    return {
      endpoints: endpoints.map((e) => ({ id: e.id, accountId: e.accountId, url: e.url!, secret: e.secret, createdAt: e.createdAt })),
      deliveries: [...this.journal.values()].filter((d) => kept.has(d.endpointId)).map((d) => ({
        id: d.id, endpointId: d.endpointId, accountId: d.accountId, url: d.url, body: d.body, status: d.status,
        attempts: d.attempts.map((a) => ({ ...a })), dueAt: d.dueAt, replayOf: d.replayOf, createdAt: d.createdAt,
        badSignature: d.badSignature, duplicates: d.duplicates,
      })),
      low: [...this.low],
      counters: { ...this.counters },
    };
  }

  /** Replaces the endpoints with url and the journal with a saved one (callback endpoints stay); pending ones are due again. */
  load(saved: WebhookSnapshot): void {
    this.generation += 1;
    this.disarm();
    for (const [id, e] of this.endpoints) if (e.url !== null) this.endpoints.delete(id);
    this.journal.clear();
    this.queue.clear();
    for (const e of saved.endpoints) {
      this.endpoints.set(e.id, { id: e.id, accountId: e.accountId, url: e.url, secret: e.secret, bytes: secretBytes(e.secret), createdAt: e.createdAt });
    }
    const now = this.engine.clock.now();
    for (const s of saved.deliveries) {
      const d: Delivery = { ...s, event: JSON.parse(s.body) as WebhookEvent, attempts: s.attempts.map((a) => ({ ...a })) };
      // An attempt in flight when the state was saved is made again.
      if (d.status === 'pending' && d.dueAt === null) d.dueAt = now;
      this.journal.set(d.id, d);
      if (d.status === 'pending') this.queue.push(d.dueAt!, d);
    }
    this.low = new Set(saved.low);
    this.counters = { endpoint: saved.counters.endpoint, event: saved.counters.event, delivery: saved.counters.delivery };
    this.arm();
  }

  /** Back to the start: the endpoints of the options only, no deliveries, counters from zero. */
  reset(): void {
    this.generation += 1;
    this.disarm();
    this.endpoints.clear();
    this.journal.clear();
    this.queue.clear();
    this.low.clear();
    this.counters = { endpoint: 0, event: 0, delivery: 0 };
    this.registerInitial();
  }

  private registerInitial(): void {
    (this.options.endpoints ?? []).forEach((spec, i) => {
      if (spec.accountId !== undefined) return void this.add({ ...spec, accountId: spec.accountId });
      const secret = spec.secret ?? seededSecret(this.engine.seed, `initial:${i}`);
      for (const account of this.engine.state.accounts.values()) {
        if (PLANS[account.plan].webhooks) this.add({ ...spec, accountId: account.id, secret });
      }
    });
  }
}

function assertPlan(account: Account): void {
  const plan = PLANS[account.plan];
  if (!plan.webhooks) {
    throw new SandboxError(`Webhooks are a feature of the Pro and Enterprise plans; account '${account.id}' is on the ${plan.name} plan.`);
  }
}

function endpointView(e: Endpoint): WebhookEndpoint {
  return { id: e.id, accountId: e.accountId, url: e.url, secret: e.secret, createdAt: iso(e.createdAt) };
}

function deliveryView(d: Delivery): WebhookDelivery {
  return {
    id: d.id,
    eventId: d.event.id,
    eventType: d.event.type,
    endpointId: d.endpointId,
    accountId: d.accountId,
    url: d.url,
    status: d.status,
    attempts: d.attempts.map((a) => ({ ...a })),
    nextAttemptAt: d.status === 'pending' && d.dueAt !== null ? iso(d.dueAt) : null,
    replayOf: d.replayOf,
    createdAt: iso(d.createdAt),
    event: JSON.parse(d.body) as WebhookEvent,
  };
}
