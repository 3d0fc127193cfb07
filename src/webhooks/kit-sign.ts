/** `sandbox.webhooks.sign()`: an event as a signed Standard Webhooks message, for a handler's unit test. */
import { parseInput, webhookKitOptions } from '../schemas.js';
import type { WebhookEvent } from './events.js';
import { importKey, secretBytes, sign, webhookHeaders } from './signature.js';

/** The options of `sandbox.webhooks.sign()`. */
export interface WebhookSignOptions {
  /** The `whsec_…` secret the handler verifies with. */
  secret: string;
  /**
   * `webhook-timestamp`, in whole seconds since 1970 or as a Date. Default: now, by the wall clock (not the sandbox
   * clock), because verifiers compare it with `Date.now()`.
   */
  timestamp?: number | Date;
}

/** A signed message: the raw body and the headers, as a handler receives them. */
export interface SignedWebhook {
  body: string;
  headers: Record<string, string>;
}

/** Seconds since 1970 by the wall clock. */
export const wallSeconds = (): number => Math.floor(Date.now() / 1000);

/** Signs `body` (the JSON of the event `id`) with `secret`, or with `key` when given, at `timestamp` seconds. */
export async function signBody(
  id: string,
  body: string,
  timestamp: number,
  key: CryptoKey | Uint8Array<ArrayBuffer>,
): Promise<SignedWebhook> {
  const cryptoKey = key instanceof Uint8Array ? await importKey(key) : key;
  return { body, headers: webhookHeaders(id, timestamp, await sign(cryptoKey, id, timestamp, body)) };
}

export async function signEvent(event: WebhookEvent, given: WebhookSignOptions): Promise<SignedWebhook> {
  const checked = parseInput(webhookKitOptions().anEvent, event, 'the event');
  const options = parseInput(webhookKitOptions().sign, given, 'the sign options');
  const { timestamp } = options;
  const seconds =
    timestamp === undefined
      ? wallSeconds()
      : timestamp instanceof Date
        ? Math.floor(timestamp.getTime() / 1000)
        : timestamp;
  return signBody(checked.id, JSON.stringify(event), seconds, secretBytes(options.secret));
}
