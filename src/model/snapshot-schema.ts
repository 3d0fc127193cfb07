import { z } from 'zod';
import { MODEL_IDS } from './models.js';
import { PLAN_IDS } from './plans.js';
import { SCOPES } from './scopes.js';
import { PRIORITIES, TASK_STATUSES } from './types.js';

const int = z.number().int();
const time = z.number().finite();
const bucket = z.looseObject({ windowStart: time, count: int, tokens: z.number().nonnegative() });

/**
 * What a state snapshot must hold for the request core to run on it: the fields the rules read, with their types.
 * A file that fails this is refused before the sandbox starts (and is never overwritten).
 */
export const SnapshotSchema = z.looseObject({
  seed: int,
  now: time,
  accounts: z.array(z.looseObject({
    id: z.string(),
    name: z.string(),
    plan: z.enum(PLAN_IDS as [string, ...string[]]),
    balanceNano: int.nonnegative(),
    heldNano: int.nonnegative(),
    limits: z.looseObject({ rpm: int.positive().optional(), tpm: int.positive().optional() }),
    periodStart: time,
    periodEnd: time,
    usage: z.looseObject({
      requests: int,
      byEndpoint: z.record(z.string(), int),
      inputTokens: int,
      outputTokens: int,
      costNano: int,
      tasks: z.record(z.string(), int),
    }),
  })),
  keys: z.array(z.looseObject({ id: z.string(), key: z.string(), accountId: z.string(), scopes: z.array(z.enum(SCOPES)), revoked: z.boolean(), label: z.string() })),
  agents: z.array(z.looseObject({
    id: z.string(),
    name: z.string(),
    capabilities: z.array(z.string()),
    model: z.enum(MODEL_IDS as [string, ...string[]]),
    status: z.enum(['available', 'unavailable']),
    createdAt: time,
    tokens: z.looseObject({ overhead: int, outputMin: int, outputMax: int }),
  })),
  tasks: z.array(z.looseObject({
    id: z.string(),
    accountId: z.string(),
    agentId: z.string(),
    priority: z.enum(PRIORITIES as [string, ...string[]]),
    model: z.enum(MODEL_IDS as [string, ...string[]]),
    status: z.enum(TASK_STATUSES as [string, ...string[]]),
    startAt: time,
    endAt: time,
    holdNano: int,
    costNano: int,
    priceNano: z.looseObject({ input: z.number(), output: z.number() }),
  })),
  buckets: z.array(z.tuple([z.string(), bucket])),
  anonymous: z.array(z.tuple([z.string(), bucket])),
  idempotency: z.array(z.tuple([z.string(), z.looseObject({ bodyHash: z.number(), taskId: z.string(), at: time })])),
  counters: z.looseObject({ task: int, key: int, account: int }),
});

/** The first few problems of a value that is not a usable snapshot, one per line, each naming its path. */
export function snapshotProblems(input: unknown): string[] {
  const parsed = SnapshotSchema.safeParse(input);
  if (parsed.success) return [];
  return parsed.error.issues.slice(0, 5).map((i) => `at ${i.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') || '(top level)'}: ${i.message}`);
}
