import type { WebhookEvent, WebhookEventType } from './events.js';
import type { DeliverySettings } from './retry.js';
import type { WebhookCallback } from './send.js';
import type { DeliverOptions, DeliverReport, DeliverTarget } from './kit-deliver.js';
import type { WebhookEventOptions } from './kit-event.js';
import type { SignedWebhook, WebhookSignOptions } from './kit-sign.js';

/** The createSandbox option `webhooks`. */
export interface WebhookOptions extends Partial<DeliverySettings> {
  /** `credits.low` is sent when a debit leaves an account's balance under this many USD. Default 5. */
  lowBalanceUsd?: number;
  /**
   * Endpoints registered from the start, and again after `reset()`. Without `accountId`, one endpoint per account
   * whose plan has webhooks, all with one secret (what the CLI's `--webhook URL` does).
   */
  endpoints?: (Omit<AddWebhookInput, 'accountId'> & { accountId?: string })[];
  /** How many finished deliveries the journal keeps (pending ones are always kept). Default 1000. */
  deliveriesKept?: number;
  /** The longest `flush()` (and the control API's flush, test and replay) waits, in real ms. Default 30000. */
  flushTimeoutMs?: number;
}

export interface AddWebhookInput {
  accountId: string;
  /** Where to POST the messages (http or https). In-process, the POST goes through `fetch`, so msw can receive it. */
  url?: string;
  /** Or an in-process receiver called with each message. */
  callback?: WebhookCallback;
  /** A `whsec_…` secret of your own; default: one derived from the seed. */
  secret?: string;
}

/** A registered endpoint. */
export interface WebhookEndpoint {
  id: string;
  accountId: string;
  /** null for a callback endpoint. */
  url: string | null;
  /** `whsec_` + base64 of the HMAC key: give it to your receiver's verifier. */
  secret: string;
  /** ISO 8601, sandbox clock. */
  createdAt: string;
}

export interface DeliveryAttempt {
  /** ISO 8601, sandbox clock: when the attempt was due (manual clock) or made (real clock). */
  at: string;
  /** The receiver's HTTP status, or null when no answer came. */
  status: number | null;
  /** Real milliseconds the attempt took. */
  latencyMs: number;
  error: string | null;
  /** The start of the receiver's answer body. */
  response: string | null;
  /** A second copy sent by the `webhook-duplicates` scenario. */
  duplicate: boolean;
  /** The headers sent (the Standard Webhooks three among them); the secret is never in them. */
  headers: Record<string, string>;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One message to one endpoint, with its attempts (the delivery journal). */
export interface WebhookDelivery {
  id: string;
  /** The event's id: the `webhook-id` header, the same on every attempt and on a replay. */
  eventId: string;
  eventType: WebhookEventType;
  endpointId: string;
  accountId: string;
  url: string | null;
  status: DeliveryStatus;
  attempts: DeliveryAttempt[];
  /** ISO 8601, sandbox clock; null once succeeded or failed. */
  nextAttemptAt: string | null;
  /** The delivery this one replays. */
  replayOf: string | null;
  /**
   * The webhook scenario that spoiled this delivery (`webhook-bad-signature`, …), taken when it was queued; several
   * in force are named in the order they were applied, joined by `, `. Null when none was.
   */
  scenario: string | null;
  createdAt: string;
  event: WebhookEvent;
}

export interface DeliveryFilter {
  accountId?: string;
  endpointId?: string;
  eventId?: string;
  status?: DeliveryStatus;
}

/** `sandbox.webhooks`: signed task events (Standard Webhooks 1.0) for Pro and Enterprise accounts. */
export interface SandboxWebhooks {
  /**
   * Registers an endpoint of a Pro or Enterprise account; returns its id and `whsec_` secret.
   * @example
   * const { secret } = sandbox.webhooks.add({ accountId: 'acc_demo', url: 'https://receiver.test/hook' })
   */
  add(input: AddWebhookInput): WebhookEndpoint;
  list(accountId?: string): WebhookEndpoint[];
  /** Removes an endpoint; its pending deliveries are marked failed. */
  remove(id: string): void;
  /** The delivery journal, oldest first. */
  deliveries(filter?: DeliveryFilter): WebhookDelivery[];
  /** Sends a delivery's message again (same `webhook-id`, new timestamp and signature); resolves after the attempt. */
  replay(deliveryId: string): Promise<WebhookDelivery>;
  /** Sends a sample event (default `task.completed`) to one endpoint, an account's or all; resolves after the attempts. */
  test(options?: { endpointId?: string; accountId?: string; type?: WebhookEventType }): Promise<WebhookDelivery[]>;
  /** Resolves when every delivery due at the clock's current time has been attempted (retries included). */
  flush(): Promise<void>;
  /**
   * Sends the event `event(type, options)` builds to the endpoints of its account, as a task move would; resolves
   * after the attempts (the control API's `POST /__sandbox/webhooks/trigger`).
   */
  trigger(type: WebhookEventType, options?: WebhookEventOptions): Promise<WebhookDelivery[]>;
  /**
   * The event a delivery would carry, built from the current state: the task `taskId` (default: the account's newest
   * task), the account `accountId`. `created_at` is the sandbox clock's time. An override of a field the event does
   * not have throws.
   * @example
   * const event = sandbox.webhooks.event('task.completed', { taskId: task.id })
   */
  event(type: WebhookEventType, options?: WebhookEventOptions): WebhookEvent;
  /**
   * Signs an event as a delivery would (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`),
   * for a handler's unit test with no server. The timestamp is wall time unless given.
   * @example
   * const { body, headers } = await sandbox.webhooks.sign(event, { secret: 'whsec_…' })
   * const res = await request(app).post('/webhooks').set(headers).send(body)
   */
  sign(event: WebhookEvent, options: WebhookSignOptions): Promise<SignedWebhook>;
  /**
   * Sends an event to a handler (a URL, or an in-process `(request) => Response`) as live traffic and an attacker
   * would, and reports every attempt with a verdict per check. A handler that accepts a tampered message is also an
   * audit finding (`handler-accepts-bad-signature`, `handler-accepts-stale-timestamp`).
   * @example
   * const report = await sandbox.webhooks.deliver(app.fetch, event, { secret, tamper: ['signature', 'timestamp-stale'] })
   * expect(report.ok).toBe(true)
   */
  deliver(target: DeliverTarget, event: WebhookEvent, options?: DeliverOptions): Promise<DeliverReport>;
}
