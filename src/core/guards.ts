/** The small guards of the request core (src/core/handle.ts): rate answers, scenario header, read-only scopes. */
import type { Scope } from '../model/scopes.js';
import type { Bucket } from '../model/types.js';
import type { Effects } from '../rules/effects.js';
import { ApiError } from '../rules/errors.js';
import { retryAfterSeconds, WINDOW_MS, type RateState } from '../rules/rate-limit.js';
import { findScenario, SCENARIO_NAMES } from '../scenarios/catalog.js';

/** Past this many anonymous clients, buckets whose window has ended are swept, so the map stays bounded. */
export const MAX_ANONYMOUS_BUCKETS = 10_000;

export function dropEndedWindows(buckets: Map<string, Bucket>, now: number): void {
  for (const [client, b] of buckets) if (now >= b.windowStart + WINDOW_MS) buckets.delete(client);
}

export function rateLimited(rate: RateState, now: number): ApiError {
  return new ApiError(
    'rate_limit_exceeded',
    `Rate limit exceeded: ${rate.limit} requests per minute. Please slow down and retry after ${new Date(rate.resetAt).toISOString()}.`,
    { 'Retry-After': String(retryAfterSeconds(rate.resetAt, now)) },
  );
}

const READ_SCOPES: Scope[] = ['read:agents', 'read:tasks', 'read:usage', 'read:analytics'];

export function readOnly(scopes: readonly Scope[]): Scope[] {
  return scopes.includes('admin') ? READ_SCOPES : scopes.filter((s) => s.startsWith('read:'));
}

const NO_NAMES: readonly string[] = Object.freeze([]);

/** `X-Sandbox-Scenario: a, b` → known scenario names; an unknown name is a 400. */
export function scenarioHeader(value: string | undefined): readonly string[] {
  // No header (nearly every request): one shared empty list, nothing allocated.
  if (value === undefined || value.trim() === '') return NO_NAMES;
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!findScenario(name))
      throw new ApiError(
        'invalid_request',
        `Invalid header 'X-Sandbox-Scenario': unknown scenario '${name}'. Known scenarios: ${SCENARIO_NAMES.join(', ')}.`,
      );
  }
  return names;
}

/** The scenario effect that decided the answer, for the trace (null when the scenarios change nothing here). */
export function effectOf(e: Effects): string | null {
  if (e.networkError) return 'network error';
  if (e.serverError) return '500 internal_error';
  if (e.unavailable) return '503 service_unavailable';
  if (e.revokedKey) return 'key treated as revoked';
  if (e.rateLimited) return '429 on every request';
  if (e.outOfCredits) return 'spendable balance 0';
  if (e.readOnlyKey) return 'read-only key';
  if (e.plan) return `plan ${e.plan}`;
  if (e.emptyCatalog) return 'empty catalog';
  if (e.failTasks) return 'tasks fail';
  if (e.slowFactor) return `tasks ${e.slowFactor}x slower`;
  if (e.latencyMs) return `${e.latencyMs} ms latency`;
  return null;
}
