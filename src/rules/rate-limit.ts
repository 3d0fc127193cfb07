import type { Bucket } from '../model/types.js';

/** The rate window: "RPM" and "TPM" are per minute. */
export const WINDOW_MS = 60_000;

export interface RateState {
  limit: number;
  remaining: number;
  /** Epoch ms of the window's end. */
  resetAt: number;
}

/** The bucket's window at `now`: the current one, or a fresh one when the last has ended (fixed windows). */
export function currentWindow(bucket: Bucket | undefined, now: number): Bucket {
  if (bucket && now < bucket.windowStart + WINDOW_MS) return bucket;
  return { windowStart: now, count: 0, tokens: 0 };
}

export type RateDecision = RateState & { admitted: boolean };

/**
 * Counts one request against `limit` in the bucket's window; mutates and returns the bucket.
 * @returns whether the request is admitted, and the figures for the `X-RateLimit-*` headers.
 */
export function takeRequest(bucket: Bucket, limit: number): RateDecision {
  const admitted = bucket.count < limit;
  if (admitted) bucket.count += 1;
  return { admitted, limit, remaining: Math.max(0, limit - bucket.count), resetAt: bucket.windowStart + WINDOW_MS };
}

/** Tokens left of a per-minute token limit in the bucket's window. */
export function tokensLeft(bucket: Bucket, tpm: number): number {
  return Math.max(0, tpm - bucket.tokens);
}

/** Whole seconds until the window ends (RFC 9110 `Retry-After`), at least 1. */
export function retryAfterSeconds(resetAt: number, now: number): number {
  return Math.max(1, Math.ceil((resetAt - now) / 1000));
}
