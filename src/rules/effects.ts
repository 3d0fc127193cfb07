import type { PlanId } from '../model/plans.js';

/**
 * What active scenarios change for one request. Scenarios are data; the request core reads these flags at the step
 * each one concerns, so every way of selecting a scenario has the same effect.
 */
export interface Effects {
  /** The connection fails (msw network error; a reset socket in server mode). */
  networkError?: boolean;
  /** 500 `internal_error`. */
  serverError?: boolean;
  /** 503 `service_unavailable` with `Retry-After`. */
  unavailable?: boolean;
  /** Delay before answering, in real milliseconds. */
  latencyMs?: number;
  /** 429 on every request, `X-RateLimit-Remaining: 0`. */
  rateLimited?: boolean;
  /** The key is treated as revoked: 401 `invalid_api_key`. */
  revokedKey?: boolean;
  /** The key keeps only its `read:*` scopes (admin becomes every read scope): 403 on writes. */
  readOnlyKey?: boolean;
  /** Limits and prices of another plan. */
  plan?: PlanId;
  /** Spendable balance is zero: 402 on task creation. */
  outOfCredits?: boolean;
  /** Task timings multiplied by this factor. */
  slowFactor?: number;
  /** New tasks end `failed`. */
  failTasks?: boolean;
  /** The catalog is empty: no agent is listed or found. */
  emptyCatalog?: boolean;
  /** Webhook first attempts wait this many sandbox ms (plus seeded jitter up to `webhookDelayJitterMs`). */
  webhookDelayMs?: number;
  webhookDelayJitterMs?: number;
  /** Every successful webhook delivery is sent a second time (same `webhook-id`). */
  webhookDuplicates?: boolean;
  /** Webhooks are signed with a key that is not the endpoint's secret. */
  webhookBadSignature?: boolean;
  /** Webhooks carry a `webhook-timestamp` outside the Standard Webhooks tolerance, ten minutes in the past. */
  webhookStaleTimestamp?: boolean;
}

export const NO_EFFECTS: Readonly<Effects> = Object.freeze({});
