/**
 * Webhooks: task moves and low balances become signed messages, queued per endpoint and delivered on the sandbox
 * clock. Events are made synchronously inside the request core (exactly once per move, in order); signing (Web
 * Crypto) and sending (fetch or a callback) are async, so they happen in a delivery loop that `flush()` awaits.
 * The parts: settings.ts (options), journal.ts (deliveries and views), loop.ts (the delivery loop, over queue.ts and
 * delivery.ts: one attempt and the retry decision), endpoints.ts (checked endpoints).
 */
import type { Engine } from '../core/engine.js';
import { SandboxError } from '../errors.js';
import { PLANS } from '../model/plans.js';
import { hash53, seededId } from '../model/random.js';
import type { WebhookSnapshot } from '../model/snapshot-schema.js';
import type { TaskEvent } from '../rules/tasks.js';
import { initialEndpoints, newEndpoint, savedEndpoints, testTargets } from './endpoints.js';
import { creditsLowEvent, sampleEvent, taskEvent, type WebhookEvent, type WebhookEventType } from './events.js';
import { deliverEvent, type DeliverOptions, type DeliverReport, type DeliverTarget } from './kit-deliver.js';
import { accountOfEvent as accountOf, buildEvent, checkedEventType, type WebhookEventOptions } from './kit-event.js';
import { signEvent, type SignedWebhook, type WebhookSignOptions } from './kit-sign.js';
import { refusedUrl } from './url-guard.js';
import { deliveryView, DeliveryJournal, endpointView, newDelivery } from './journal.js';
import type { Delivery, DeliveryMessage, Endpoint, InForce } from './journal.js';
import { DeliveryLoop } from './loop.js';
import { webhookSettings, type WebhookSettings } from './settings.js';
import { secretBytes } from './signature.js';
import type {
  AddWebhookInput,
  DeliveryFilter,
  SandboxWebhooks,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookOptions,
} from './types.js';

export class WebhookDispatcher implements SandboxWebhooks {
  private readonly config: WebhookSettings;
  private readonly endpoints = new Map<string, Endpoint>();
  private readonly journal: DeliveryJournal;
  private readonly loop: DeliveryLoop;
  /** Accounts told `credits.low` that have not been back at or above the threshold since. */
  private low = new Set<string>();
  private counters = { endpoint: 0, event: 0, delivery: 0 };
  /** Events made by `event()`: ids of their own, so that making one changes no live event's id. */
  private kitEvents = 0;
  constructor(
    private readonly engine: Engine,
    /** Settles the task moves due at the clock's time (they emit events through `onTaskEvent`). */
    private readonly settle: () => void,
    private readonly options: WebhookOptions = {},
  ) {
    this.config = webhookSettings(options);
    this.journal = new DeliveryJournal(this.config.kept);
    const { config, journal, endpoints } = this;
    this.loop = new DeliveryLoop({ engine, settle, config, journal, endpoints, owner: this });
    this.registerInitial();
  }

  // ---- events (synchronous, inside the request core) ----

  /** The engine's `onTaskEvent`: one call per task move. */
  onTaskEvent(move: TaskEvent): void {
    // No endpoint: no event to make (a settle of 100k moves makes no closure per move).
    if (this.endpoints.size > 0)
      this.emit(move.task.accountId, move.at, (id) => taskEvent(id, move.type, move.task, move.at));
    if (move.type === 'task.completed') this.checkBalance(move.task.accountId, move.at);
  }

  /**
   * Whether the moves of a settle can be left untold: no endpoint to send them to and no account marked as told
   * `credits.low` (so the completions' balance checks would change nothing that an endpoint added later sees, except
   * that an account that went low meanwhile is told at its next completion once an endpoint exists).
   */
  quiet(): boolean {
    return this.endpoints.size === 0 && this.low.size === 0;
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
    if (this.endpoints.size > 0) this.loop.kick();
  }

  private checkBalance(accountId: string, at: number): void {
    const account = this.engine.state.accounts.get(accountId);
    if (!account) return;
    if (account.balanceNano >= this.config.lowBalanceNano) {
      this.low.delete(accountId);
      return;
    }
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
    const inForce = this.inForce(accountId);
    const { effects } = inForce;
    for (const endpoint of targets) {
      const d = this.enqueue(endpoint, { event, body, replayOf: null, at }, inForce);
      if (effects.webhookDelayMs)
        this.loop.schedule(d, at + effects.webhookDelayMs + this.jitter(d, effects.webhookDelayJitterMs ?? 0));
    }
    this.loop.kick();
  }

  private nextEventId(): string {
    return seededId('evt', this.engine.seed, `webhook-event:${String(++this.counters.event)}`);
  }

  private inForce(accountId: string): InForce {
    return this.engine.scenarios.resolveWebhooks(accountId, this.engine.seed);
  }

  private jitter(d: Delivery, max: number): number {
    return max > 0 ? hash53(`webhook-delay:${d.id}`, this.engine.seed) % (max + 1) : 0;
  }

  private enqueue(endpoint: Endpoint, message: DeliveryMessage, inForce: InForce): Delivery {
    const id = seededId('dlv', this.engine.seed, `webhook-delivery:${String(++this.counters.delivery)}`);
    const d = newDelivery(id, endpoint, message, inForce);
    this.loop.schedule(d, message.at);
    this.journal.add(d);
    return d;
  }

  // ---- the library surface ----

  add(input: AddWebhookInput): WebhookEndpoint {
    const endpoint = newEndpoint(this.engine, this, input, this.counters.endpoint + 1);
    this.counters.endpoint += 1;
    this.endpoints.set(endpoint.id, endpoint);
    this.loop.arm();
    return endpointView(endpoint);
  }

  list(accountId?: string): WebhookEndpoint[] {
    return [...this.endpoints.values()]
      .filter((e) => accountId === undefined || e.accountId === accountId)
      .map(endpointView);
  }

  remove(id: string): void {
    if (!this.endpoints.delete(id)) throw new SandboxError(`No webhook endpoint '${id}'.`, 'not_found');
    this.journal.failPending(id);
    this.loop.arm();
  }

  deliveries(filter: DeliveryFilter = {}): WebhookDelivery[] {
    return this.journal.find(filter);
  }

  async replay(deliveryId: string): Promise<WebhookDelivery> {
    const original = this.journal.get(deliveryId);
    if (!original) throw new SandboxError(`No webhook delivery '${deliveryId}'.`, 'not_found');
    const endpoint = this.endpoints.get(original.endpointId);
    if (!endpoint)
      throw new SandboxError(`The endpoint '${original.endpointId}' of delivery '${deliveryId}' was removed.`);
    const message = { event: original.event, body: original.body, replayOf: original.id, at: this.engine.clock.now() };
    const d = this.enqueue(endpoint, message, this.inForce(endpoint.accountId));
    await this.flush();
    return deliveryView(d);
  }

  async test(
    options: { endpointId?: string; accountId?: string; type?: WebhookEventType } = {},
  ): Promise<WebhookDelivery[]> {
    const type = checkedEventType(options.type ?? 'task.completed');
    const now = this.engine.clock.now();
    const agentId = this.engine.state.agents[0]?.id ?? 'agt_sample';
    return this.sendNow(testTargets([...this.endpoints.values()], options), (endpoint) => {
      const account = this.engine.state.accounts.get(endpoint.accountId);
      return (
        account &&
        sampleEvent(this.nextEventId(), type, { account, agentId, thresholdNano: this.config.lowBalanceNano, at: now })
      );
    });
  }

  async trigger(type: WebhookEventType, options: WebhookEventOptions = {}): Promise<WebhookDelivery[]> {
    this.settle();
    const built = buildEvent(this.engine, {
      type,
      options,
      id: this.nextEventId(),
      thresholdNano: this.config.lowBalanceNano,
    });
    const targets = testTargets([...this.endpoints.values()], { accountId: built.accountId });
    return this.sendNow(targets, () => built.event);
  }

  /** Queues one message per target now (what `build` gives; nothing for undefined), and waits for the attempts. */
  private async sendNow(
    targets: Endpoint[],
    build: (endpoint: Endpoint) => WebhookEvent | undefined,
  ): Promise<WebhookDelivery[]> {
    const now = this.engine.clock.now();
    const sent = targets.flatMap((endpoint) => {
      const event = build(endpoint);
      if (!event) return [];
      const message = { event, body: JSON.stringify(event), replayOf: null, at: now };
      return [this.enqueue(endpoint, message, this.inForce(endpoint.accountId))];
    });
    await this.flush();
    return sent.map(deliveryView);
  }

  event(type: WebhookEventType, options: WebhookEventOptions = {}): WebhookEvent {
    this.settle();
    const id = seededId('evt', this.engine.seed, `webhook-kit-event:${String(++this.kitEvents)}`);
    return buildEvent(this.engine, { type, options, id, thresholdNano: this.config.lowBalanceNano }).event;
  }

  readonly sign: (event: WebhookEvent, options: WebhookSignOptions) => Promise<SignedWebhook> = signEvent;

  deliver(target: DeliverTarget, event: WebhookEvent, options: DeliverOptions = {}): Promise<DeliverReport> {
    return deliverEvent(target, event, options, {
      endpointSecret: (e) =>
        [...this.endpoints.values()].find((ep) => ep.accountId === accountOf(this.engine, e))?.secret,
      refused: (url) => refusedUrl(this, url),
      accepted: (fault, e) => this.engine.audit?.observeHandler?.(fault, accountOf(this.engine, e), e.id),
      timeoutMs: this.config.timeoutMs,
    });
  }

  /**
   * Delivers what is due and waits for it, for at most `flushTimeoutMs` (default 30 s) in all: a slow receiver cannot
   * hold a flush (or a control-API call that flushes) longer. What is still in flight then goes on in the background.
   */
  flush(): Promise<void> {
    return this.loop.flush();
  }

  /** The endpoints with a url and the delivery journal, as data (a callback cannot be saved: its endpoint is left out). */
  save(): WebhookSnapshot {
    const endpoints = savedEndpoints(this.endpoints.values());
    return {
      endpoints,
      deliveries: this.journal.save(new Set(endpoints.map((e) => e.id))),
      low: [...this.low],
      counters: { ...this.counters },
    };
  }

  /** Replaces the endpoints with url and the journal with a saved one (callback endpoints stay); pending ones are due again. */
  load(saved: WebhookSnapshot): void {
    this.loop.stop();
    for (const [id, e] of this.endpoints) if (e.url !== null) this.endpoints.delete(id);
    for (const e of saved.endpoints) {
      this.endpoints.set(e.id, {
        id: e.id,
        accountId: e.accountId,
        url: e.url,
        secret: e.secret,
        bytes: secretBytes(e.secret),
        createdAt: e.createdAt,
      });
    }
    for (const d of this.journal.load(saved.deliveries, this.engine.clock.now()))
      this.loop.schedule(d, d.dueAt ?? this.engine.clock.now());
    this.low = new Set(saved.low);
    this.counters = {
      endpoint: saved.counters.endpoint,
      event: saved.counters.event,
      delivery: saved.counters.delivery,
    };
    this.loop.arm();
  }

  /** Back to the start: the endpoints of the options only, no deliveries, counters from zero. */
  reset(): void {
    this.loop.stop();
    this.endpoints.clear();
    this.journal.clear();
    this.low.clear();
    this.counters = { endpoint: 0, event: 0, delivery: 0 };
    this.kitEvents = 0;
    this.registerInitial();
  }

  private registerInitial(): void {
    for (const input of initialEndpoints(this.engine, this.options.endpoints ?? [])) this.add(input);
  }
}
