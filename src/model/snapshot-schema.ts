import { z } from 'zod';
import { lazy } from './lazy.js';
import { fieldSchemas } from './field-schemas.js';
import { MODEL_IDS } from './models.js';
import { SCOPES } from './scopes.js';
import { ENDPOINTS, PRIORITIES, TASK_STATUSES } from './types.js';

// The fields the sandbox reads from a restored state, with their types; further fields pass through untouched.
// Built on first use (a restore, a state file), not when imported: a sandbox's start validates nothing it made itself.
const basics = lazy(() => {
  const { limitValue, nanoUsd, planId } = fieldSchemas();
  const int = z.number().int();
  // Epoch ms within what a Date can print as ISO 8601 (the clock itself stays below 9999).
  const time = z.number().min(0).max(Date.parse('9999-12-31T23:59:59.999Z'));
  const bucket = z.looseObject({ windowStart: time, count: int, tokens: z.number() });

  const account = z.looseObject({
    id: z.string(),
    name: z.string(),
    plan: planId,
    balanceNano: nanoUsd,
    heldNano: nanoUsd,
    limits: z.looseObject({ rpm: limitValue.optional(), tpm: limitValue.optional() }),
    periodStart: time,
    periodEnd: time,
    usage: z.looseObject({
      requests: int,
      byEndpoint: z.record(z.enum(ENDPOINTS), int),
      inputTokens: int,
      outputTokens: int,
      costNano: int,
      tasks: z.record(z.enum(TASK_STATUSES as [string, ...string[]]), int),
    }),
    createdAt: time,
  });
  return { int, time, bucket, account };
});

const records = lazy(() => {
  const { int, time } = basics();
  const key = z.looseObject({
    id: z.string(),
    key: z.string(),
    accountId: z.string(),
    scopes: z.array(z.enum(SCOPES)),
    revoked: z.boolean(),
    label: z.string(),
  });

  const agent = z.looseObject({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    capabilities: z.array(z.string()),
    model: z.enum(MODEL_IDS as [string, ...string[]]),
    status: z.enum(['available', 'unavailable']),
    createdAt: time,
    tokens: z.looseObject({ overhead: int, outputMin: int, outputMax: int }),
  });

  const task = z.looseObject({
    id: z.string(),
    seq: int,
    accountId: z.string(),
    agentId: z.string(),
    description: z.string(),
    priority: z.enum(PRIORITIES as [string, ...string[]]),
    model: z.enum(MODEL_IDS as [string, ...string[]]),
    status: z.enum(TASK_STATUSES as [string, ...string[]]),
    error: z.looseObject({ code: z.string(), message: z.string() }).nullable(),
    inputTokens: int,
    plannedOutputTokens: int,
    outputTokensCharged: int,
    inputTokensCharged: int,
    costNano: int,
    holdNano: int,
    plannedCostNano: z.number().optional(),
    /** Snapshots written before `plannedCostNano`. */
    priceNano: z.looseObject({ input: z.number(), output: z.number() }).optional(),
    startAt: time,
    endAt: time,
    outcome: z.enum(['completed', 'failed']),
    createdAt: time,
    startedAt: time.nullable(),
    completedAt: time.nullable(),
  });
  return { key, agent, task };
});

const webhooks = lazy(() => {
  const { int, time } = basics();
  const attempt = z.looseObject({
    at: z.string(),
    status: int.nullable(),
    latencyMs: z.number(),
    error: z.string().nullable(),
    response: z.string().nullable(),
    duplicate: z.boolean(),
    headers: z.record(z.string(), z.string()).default({}),
  });

  /** Webhook endpoints (with a url; callbacks are not data) and the delivery journal, with the counters of their ids. */
  return z.looseObject({
    endpoints: z.array(
      z.looseObject({ id: z.string(), accountId: z.string(), url: z.string(), secret: z.string(), createdAt: time }),
    ),
    deliveries: z.array(
      z.looseObject({
        id: z.string(),
        endpointId: z.string(),
        accountId: z.string(),
        url: z.string().nullable(),
        body: z.string(),
        status: z.enum(['pending', 'succeeded', 'failed']),
        attempts: z.array(attempt),
        dueAt: time.nullable(),
        replayOf: z.string().nullable(),
        createdAt: time,
        badSignature: z.boolean(),
        staleTimestamp: z.boolean().default(false),
        duplicates: z.boolean(),
        scenario: z.string().nullable().default(null),
      }),
    ),
    low: z.array(z.string()),
    counters: z.looseObject({ endpoint: int, event: int, delivery: int }),
  });
});

export type WebhookSnapshot = z.infer<ReturnType<typeof webhooks>>;

/**
 * A state snapshot as `restore()` and `PUT /__sandbox/state` take it, but its tasks: each is checked on its own with
 * `snapshotTaskSchema` (src/model/snapshot-check.ts), so that no checked copy of the whole task list is ever alive.
 * Keys, tasks and endpoints must name accounts of the state: checked there too.
 */
export const snapshotRestSchema = lazy(() => {
  const { int, time, bucket, account } = basics();
  const { key, agent } = records();
  return z.looseObject({
    seed: int.optional(),
    now: time.optional(),
    clock: z.enum(['real', 'manual']).optional(),
    accounts: z.array(account),
    keys: z.array(key),
    agents: z.array(agent),
    tasks: z.array(z.unknown()),
    buckets: z.array(z.tuple([z.string(), bucket])),
    anonymous: z.array(z.tuple([z.string(), bucket])),
    idempotency: z.array(z.tuple([z.string(), z.looseObject({ bodyHash: z.number(), taskId: z.string(), at: time })])),
    counters: z.looseObject({ task: int, key: int, account: int }),
    webhooks: webhooks().optional(),
  });
});

/** One task of a state snapshot. */
export const snapshotTaskSchema = lazy(() => records().task);
