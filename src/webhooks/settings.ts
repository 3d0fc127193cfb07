import { usdToNano } from '../model/money.js';
import { DEFAULT_DELIVERY, type DeliverySettings } from './retry.js';
import type { WebhookOptions } from './types.js';

const DEFAULT_LOW_BALANCE_USD = 5;
/** The longest a flush waits, in real ms (each attempt also has its own `timeoutMs`). */
const DEFAULT_FLUSH_TIMEOUT_MS = 30_000;
const DEFAULT_DELIVERIES_KEPT = 1000;

/** The webhook options, checked, with their defaults. */
export interface WebhookSettings extends DeliverySettings {
  flushTimeoutMs: number;
  lowBalanceNano: number;
  /** How many finished deliveries the journal keeps. */
  kept: number;
}

/** The createSandbox option `webhooks` (checked by src/sandbox/option-schemas.ts), with its defaults. */
export function webhookSettings(options: WebhookOptions): WebhookSettings {
  return {
    maxAttempts: options.maxAttempts ?? DEFAULT_DELIVERY.maxAttempts,
    retryBaseMs: options.retryBaseMs ?? DEFAULT_DELIVERY.retryBaseMs,
    timeoutMs: options.timeoutMs ?? DEFAULT_DELIVERY.timeoutMs,
    flushTimeoutMs: options.flushTimeoutMs ?? DEFAULT_FLUSH_TIMEOUT_MS,
    lowBalanceNano: usdToNano(options.lowBalanceUsd ?? DEFAULT_LOW_BALANCE_USD),
    kept: options.deliveriesKept ?? DEFAULT_DELIVERIES_KEPT,
  };
}
