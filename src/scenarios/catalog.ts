import type { Effects } from '../rules/effects.js';

/** Options a scenario may take (only `latency` reads them today). */
export interface ScenarioOptions {
  /** `latency`: fixed delay in ms (default 500). */
  ms?: number;
  /** `latency`: extra seeded jitter of up to this many ms (default 0). */
  jitterMs?: number;
  /** `slow-tasks`: how many times slower (default 10). */
  factor?: number;
}

/** A named preset: plain data. The same object serves the CLI flag, the header, magic keys and `useScenario`. */
export interface Scenario<Name extends string = string> {
  name: Name;
  description: string;
  /** What it changes: answers of the API (reached through every door, magic keys included) or webhook deliveries. */
  reaches: 'api' | 'webhooks';
  effects(options: ScenarioOptions): Effects;
}

const scenario = <const Name extends string>(
  name: Name,
  description: string,
  effects: Scenario['effects'],
): Scenario<Name> => ({ name, description, reaches: name.startsWith('webhook-') ? 'webhooks' : 'api', effects });

/** The catalogue of scenarios, docs/guides/scenarios.md (a tuple, so that `ScenarioName` is the union of its names). */
export const SCENARIOS = [
  scenario(
    'out-of-credits',
    'The spendable balance is zero: POST /ext/tasks answers 402 insufficient_credits. Reads still work.',
    () => ({ outOfCredits: true }),
  ),
  scenario(
    'rate-limited',
    'Every request answers 429 rate_limit_exceeded with X-RateLimit-Remaining: 0, a Reset in the future and Retry-After.',
    () => ({ rateLimited: true }),
  ),
  scenario('revoked-key', 'The key is treated as revoked: every request answers 401 invalid_api_key.', () => ({
    revokedKey: true,
  })),
  scenario(
    'read-only-key',
    'The key keeps only its read scopes (admin becomes every read:* scope): POST /ext/tasks answers 403 insufficient_scope.',
    () => ({ readOnlyKey: true }),
  ),
  scenario(
    'free-plan',
    "The account runs on the Free plan's limits and prices: 10 requests and 10K tokens per minute, no discount.",
    () => ({ plan: 'free' }),
  ),
  scenario(
    'slow-tasks',
    'Tasks created meanwhile take 10 times longer (option factor) to start and to finish.',
    (o) => ({ slowFactor: o.factor ?? 10 }),
  ),
  scenario('failing-tasks', 'Tasks created meanwhile end failed with error task_failed, and are not charged.', () => ({
    failTasks: true,
  })),
  scenario(
    'latency',
    'Every answer is delayed by a fixed time (option ms, default 500) plus seeded jitter (option jitterMs, default 0).',
    (o) => ({ latencyMs: o.ms ?? 500 }),
  ),
  scenario('server-error', 'Every request answers 500 internal_error in the error shape.', () => ({
    serverError: true,
  })),
  scenario('unavailable', 'Every request answers 503 service_unavailable with Retry-After.', () => ({
    unavailable: true,
  })),
  scenario('network-error', 'The connection fails: a network error in-process, a reset socket in server mode.', () => ({
    networkError: true,
  })),
  scenario(
    'empty-catalog',
    'The catalog is empty: GET /ext/agents lists nothing, every agent id is 404 not_found.',
    () => ({ emptyCatalog: true }),
  ),
  scenario(
    'webhook-delays',
    'Webhook deliveries leave late: each first attempt waits on the sandbox clock (option ms, default 10000) plus seeded jitter (option jitterMs, default 0), so with jitter events may arrive out of order.',
    (o) => ({ webhookDelayMs: o.ms ?? 10_000, webhookDelayJitterMs: o.jitterMs ?? 0 }),
  ),
  scenario(
    'webhook-duplicates',
    'Every webhook that a receiver accepts is delivered a second time with the same webhook-id: receivers must deduplicate.',
    () => ({ webhookDuplicates: true }),
  ),
  scenario(
    'webhook-bad-signature',
    'Webhooks are signed with the wrong key: webhook-signature does not verify against the endpoint secret, and a receiver must reject them.',
    () => ({ webhookBadSignature: true }),
  ),
] as const;

/** The name of a scenario of the catalogue: `'rate-limited'`, `'out-of-credits'`, … */
export type ScenarioName = (typeof SCENARIOS)[number]['name'];

const BY_NAME = new Map<string, Scenario<ScenarioName>>(SCENARIOS.map((s) => [s.name, s]));

export function findScenario(name: string): Scenario<ScenarioName> | undefined {
  return BY_NAME.get(name);
}

export const SCENARIO_NAMES: readonly ScenarioName[] = SCENARIOS.map((s) => s.name);

/** The scenarios that change the API's answers (each has a magic key in the default fixtures). */
export const API_SCENARIO_NAMES: readonly ScenarioName[] = SCENARIOS.filter((s) => s.reaches === 'api').map(
  (s) => s.name,
);
