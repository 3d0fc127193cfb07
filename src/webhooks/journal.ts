/** The delivery journal: every message made for an endpoint, its attempts, and the views the library returns. */
import { iso } from '../core/iso.js';
import type { WebhookSnapshot } from '../model/snapshot-schema.js';
import type { Effects } from '../rules/effects.js';
import type { WebhookEvent } from './events.js';
import type { WebhookCallback } from './send.js';
import type { DeliveryAttempt, DeliveryFilter, DeliveryStatus, WebhookDelivery, WebhookEndpoint } from './types.js';

export interface Endpoint {
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

export interface Delivery {
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
  staleTimestamp: boolean;
  duplicates: boolean;
  /** The webhook scenarios in force when it was made (names joined by `, `), or null. */
  scenario: string | null;
}

/** The scenarios in force for an account's webhooks: their effects, and the names of those that act on webhooks. */
export interface InForce {
  effects: Effects;
  names: readonly string[];
}

/** What one delivery sends: the event, its body as signed, the delivery it replays, when it is due. */
export interface DeliveryMessage {
  event: WebhookEvent;
  body: string;
  replayOf: string | null;
  at: number;
}

/** A new pending delivery of `message` to `endpoint`, due at `message.at`, spoiled as the scenarios in force say. */
export function newDelivery(
  id: string,
  endpoint: Endpoint,
  message: DeliveryMessage,
  { effects, names }: InForce,
): Delivery {
  return {
    id,
    event: message.event,
    body: message.body,
    endpointId: endpoint.id,
    accountId: endpoint.accountId,
    url: endpoint.url,
    status: 'pending',
    attempts: [],
    dueAt: message.at,
    replayOf: message.replayOf,
    createdAt: message.at,
    badSignature: effects.webhookBadSignature === true,
    staleTimestamp: effects.webhookStaleTimestamp === true,
    duplicates: effects.webhookDuplicates === true,
    scenario: names.length > 0 ? names.join(', ') : null,
  };
}

type SavedDelivery = WebhookSnapshot['deliveries'][number];

/** Deliveries by id, in the order they were made; finished ones beyond `kept` are dropped, oldest first. */
export class DeliveryJournal {
  private readonly byId = new Map<string, Delivery>();

  constructor(private readonly kept: number) {}

  add(d: Delivery): void {
    this.byId.set(d.id, d);
    this.prune();
  }

  get(id: string): Delivery | undefined {
    return this.byId.get(id);
  }

  values(): IterableIterator<Delivery> {
    return this.byId.values();
  }

  clear(): void {
    this.byId.clear();
  }

  prune(): void {
    if (this.byId.size <= this.kept) return;
    for (const [id, d] of this.byId) {
      if (this.byId.size <= this.kept) break;
      if (d.status !== 'pending') this.byId.delete(id);
    }
  }

  /** The endpoint was removed: its pending deliveries fail. */
  failPending(endpointId: string): void {
    for (const d of this.byId.values()) {
      if (d.endpointId === endpointId && d.status === 'pending') {
        d.status = 'failed';
        d.dueAt = null;
      }
    }
  }

  find(filter: DeliveryFilter): WebhookDelivery[] {
    const out: WebhookDelivery[] = [];
    for (const d of this.byId.values()) {
      if (filter.accountId !== undefined && d.accountId !== filter.accountId) continue;
      if (filter.endpointId !== undefined && d.endpointId !== filter.endpointId) continue;
      if (filter.eventId !== undefined && d.event.id !== filter.eventId) continue;
      if (filter.status !== undefined && d.status !== filter.status) continue;
      out.push(deliveryView(d));
    }
    return out;
  }

  /** The deliveries of the given endpoints, as data. */
  save(endpointIds: ReadonlySet<string>): SavedDelivery[] {
    return [...this.byId.values()]
      .filter((d) => endpointIds.has(d.endpointId))
      .map((d) => ({
        id: d.id,
        endpointId: d.endpointId,
        accountId: d.accountId,
        url: d.url,
        body: d.body,
        status: d.status,
        attempts: d.attempts.map((a) => ({ ...a, headers: { ...a.headers } })),
        dueAt: d.dueAt,
        replayOf: d.replayOf,
        createdAt: d.createdAt,
        badSignature: d.badSignature,
        staleTimestamp: d.staleTimestamp,
        duplicates: d.duplicates,
        scenario: d.scenario,
      }));
  }

  /** Replaces the journal with saved deliveries; returns the pending ones (an attempt in flight when saved is due `now`). */
  load(saved: readonly SavedDelivery[], now: number): Delivery[] {
    this.byId.clear();
    const pending: Delivery[] = [];
    for (const s of saved) {
      // A state file of an earlier version has no headers, staleTimestamp nor scenario.
      const d: Delivery = {
        ...s,
        event: JSON.parse(s.body) as WebhookEvent,
        attempts: s.attempts.map((a) => ({ ...a, headers: { ...a.headers } })),
        staleTimestamp: Boolean(s.staleTimestamp as boolean | undefined),
        scenario: s.scenario ?? null,
      };
      if (d.status === 'pending') {
        d.dueAt ??= now;
        pending.push(d);
      }
      this.byId.set(d.id, d);
    }
    return pending;
  }
}

export function endpointView(e: Endpoint): WebhookEndpoint {
  return { id: e.id, accountId: e.accountId, url: e.url, secret: e.secret, createdAt: iso(e.createdAt) };
}

export function deliveryView(d: Delivery): WebhookDelivery {
  return {
    id: d.id,
    eventId: d.event.id,
    eventType: d.event.type,
    endpointId: d.endpointId,
    accountId: d.accountId,
    url: d.url,
    status: d.status,
    attempts: d.attempts.map((a) => ({ ...a, headers: { ...a.headers } })),
    nextAttemptAt: d.status === 'pending' && d.dueAt !== null ? iso(d.dueAt) : null,
    replayOf: d.replayOf,
    scenario: d.scenario,
    createdAt: iso(d.createdAt),
    event: JSON.parse(d.body) as WebhookEvent,
  };
}
