import { rngFor } from '../model/random.js';

/** Delivery settings (createSandbox option `webhooks`). */
export interface DeliverySettings {
  /** Attempts per delivery, the first included, before it is marked failed. Default 5. */
  maxAttempts: number;
  /** Wait before the first retry, in sandbox ms; doubled for each further retry, plus up to 20 % seeded jitter. Default 5000. */
  retryBaseMs: number;
  /** Real milliseconds an attempt may take before it counts as failed. Default 10000. */
  timeoutMs: number;
}

export const DEFAULT_DELIVERY: DeliverySettings = { maxAttempts: 5, retryBaseMs: 5_000, timeoutMs: 10_000 };

/**
 * Sandbox milliseconds to wait after failed attempt `attempt` (1-based) of a delivery: `base × 2^(attempt−1)`, plus
 * jitter of up to 20 % drawn from (seed, delivery id, attempt). Defaults: ≈5 s, 10 s, 20 s, 40 s.
 */
export function retryDelay(seed: number, deliveryId: string, attempt: number, baseMs: number): number {
  const exp = baseMs * 2 ** (attempt - 1);
  return Math.round(exp * (1 + 0.2 * rngFor(seed, `webhook-retry:${deliveryId}:${attempt}`)()));
}
