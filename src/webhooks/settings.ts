import { SandboxError } from '../errors.js';
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

/** The createSandbox option `webhooks`, checked: a bad value throws, naming the option. */
export function webhookSettings(options: WebhookOptions): WebhookSettings {
  const check = (ok: boolean, what: string) => {
    if (!ok) throw new SandboxError(`webhooks.${what}`);
  };
  const maxAttempts = options.maxAttempts === undefined ? DEFAULT_DELIVERY.maxAttempts : options.maxAttempts;
  const retryBaseMs = options.retryBaseMs === undefined ? DEFAULT_DELIVERY.retryBaseMs : options.retryBaseMs;
  const timeoutMs = options.timeoutMs === undefined ? DEFAULT_DELIVERY.timeoutMs : options.timeoutMs;
  check(
    Number.isInteger(maxAttempts) && maxAttempts >= 1 && maxAttempts <= 50,
    `maxAttempts must be an integer from 1 to 50.`,
  );
  check(Number.isFinite(retryBaseMs) && retryBaseMs >= 0, `retryBaseMs must be a number of milliseconds ≥ 0.`);
  check(Number.isFinite(timeoutMs) && timeoutMs > 0, `timeoutMs must be a number of milliseconds > 0.`);
  const low = options.lowBalanceUsd ?? DEFAULT_LOW_BALANCE_USD;
  check(Number.isFinite(low) && low >= 0, `lowBalanceUsd must be a number ≥ 0.`);
  const flushTimeoutMs = options.flushTimeoutMs ?? DEFAULT_FLUSH_TIMEOUT_MS;
  check(Number.isFinite(flushTimeoutMs) && flushTimeoutMs > 0, `flushTimeoutMs must be a number of milliseconds > 0.`);
  const kept = options.deliveriesKept ?? DEFAULT_DELIVERIES_KEPT;
  check(Number.isInteger(kept) && kept >= 1, `deliveriesKept must be a positive integer.`);
  return { maxAttempts, retryBaseMs, timeoutMs, flushTimeoutMs, lowBalanceNano: usdToNano(low), kept };
}
