/**
 * One set of schemas for what the sandbox is given from outside: the library's inputs, the control API's bodies and
 * queries, and (through src/model/snapshot-schema.ts) the state files. Browser-safe: imports nothing from `node:`.
 * A value that fails is refused whole with a `SandboxError` naming the field (the control API answers it as a 400).
 * The schemas are built on first use (`lazy`), not when the module is imported.
 */
import { z } from 'zod';
import { SandboxError } from './errors.js';
import { fieldSchemas } from './model/field-schemas.js';
import { lazy, lazyRecord } from './model/lazy.js';
import { SCENARIO_NAMES, type ScenarioName } from './scenarios/catalog.js';

/** A schema built on first use: what the exported single schemas are (`parseInput` takes one as it takes a schema). */
type LazySchema<S extends z.ZodType> = () => S;

// ---- fields, shared by every door (the plain ones live in the model: model/field-schemas.ts) ----

const fields = lazy(() => {
  const { limitValue } = fieldSchemas();
  return {
    limitsPatch: z.strictObject({ rpm: limitValue.nullable().optional(), tpm: limitValue.nullable().optional() }),
    text: z.string({ error: 'must be a string' }),
    id: z
      .string({ error: 'must be a string' })
      .min(1, { error: 'must not be empty' })
      .max(200, { error: 'is too long' }),
  };
});

/** A webhook endpoint URL: absolute, http or https. (The one URL check of the CLI, the library and the control API.) */
export const webhookUrl = lazy(() =>
  z.string({ error: 'must be a string' }).transform((raw, ctx) => {
    const url = URL.canParse(raw) ? new URL(raw) : undefined;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      ctx.addIssue({ code: 'custom', message: `must be an absolute http or https URL; got ${JSON.stringify(raw)}` });
      return z.NEVER;
    }
    return url.href;
  }),
);

// ---- the library's inputs ----

export const accountCreateInput = lazy(() => {
  const { planId, balanceUsd } = fieldSchemas();
  return z.strictObject({ plan: planId.optional(), balanceUsd: balanceUsd.optional(), name: fields().text.optional() });
});
export const accountPatchInput = lazy(() => {
  const { planId, balanceUsd } = fieldSchemas();
  return z.strictObject({
    plan: planId.optional(),
    balanceUsd: balanceUsd.optional(),
    limits: fields().limitsPatch.optional(),
  });
});
export const keyCreateInput = lazy(() => {
  const { id, text } = fields();
  return z.strictObject({ accountId: id.optional(), scopes: fieldSchemas().scopeList, label: text.optional() });
});

// ---- the control API's bodies (snake_case, as on the wire) and queries ----

/** A number field's error: "not a finite number" for 1e400 (JSON's Infinity), else the field's own message. */
const finiteOr = (message: string) => (issue: { input?: unknown }) =>
  typeof issue.input === 'number' && !Number.isFinite(issue.input) ? 'is not a finite number' : message;

const clockBody = () =>
  z
    .strictObject({
      advance: z
        .union([z.number(), z.string()], { error: finiteOr('must be a duration ("90s") or milliseconds') })
        .optional(),
      set: z
        .union([z.number(), z.string()], { error: finiteOr('must be an ISO 8601 time or epoch milliseconds') })
        .optional(),
    })
    .refine((b) => b.advance === undefined || b.set === undefined, {
      error: 'give { "advance": "90s" | ms } or { "set": ISO 8601 }, not both',
    });

/** A request pattern on the wire (`POST /__sandbox/verify`): snake_case, any other key a 400 naming it. */
const requestPattern = () => {
  const { text, id } = fields();
  const named = z.record(z.string(), z.union([z.string(), z.array(z.string())]), {
    error: 'must be an object of names and values',
  });
  return z.strictObject({
    method: text.optional(),
    path: text.optional(),
    query: named.optional(),
    headers: named.optional(),
    body: z.unknown().optional(),
    status: z.number({ error: 'must be an HTTP status code' }).int().min(100).max(599).optional(),
    code: text.nullable().optional(),
    account_id: id.optional(),
    key_id: id.optional(),
  });
};

/** A count of matching requests: `eq`, `gte`, `lte` (none: at least one). */
const countRule = () => {
  const n = z.number({ error: 'must be a whole number' }).int({ error: 'must be a whole number' }).min(0);
  return z.strictObject({ eq: n.optional(), gte: n.optional(), lte: n.optional() });
};

const buildControlBodies = () => {
  const { planId, balanceUsd, scopeList } = fieldSchemas();
  const { limitsPatch, text, id } = fields();
  return {
    accountCreate: z.strictObject({
      plan: planId.optional(),
      balance_usd: balanceUsd.optional(),
      name: text.optional(),
    }),
    accountPatch: z.strictObject({
      plan: planId.optional(),
      balance_usd: balanceUsd.optional(),
      limits: limitsPatch.optional(),
    }),
    keyCreate: z.strictObject({ account_id: id.optional(), scopes: scopeList, label: text.optional() }),
    clock: clockBody(),
    scenario: z.strictObject({
      name: z.enum(SCENARIO_NAMES as [ScenarioName, ...ScenarioName[]], {
        error: `must be one of ${SCENARIO_NAMES.join(', ')}`,
      }),
      account_id: id.optional(),
      key_id: id.optional(),
      options: z.record(z.string(), z.unknown(), { error: 'must be an object' }).optional(),
    }),
    taskComplete: z.strictObject({ result: z.unknown().optional() }),
    taskFail: z.strictObject({ error: z.strictObject({ code: text, message: text }).optional() }),
    webhookAdd: z.strictObject({ url: webhookUrl(), secret: text.optional() }),
    webhookTest: z.strictObject({ endpoint_id: id.optional(), account_id: id.optional(), type: text.optional() }),
    webhookTrigger: z.strictObject({
      type: text,
      task_id: id.optional(),
      account_id: id.optional(),
      overrides: z.record(z.string(), z.unknown(), { error: 'must be an object' }).optional(),
    }),
    mark: z.strictObject({ account_id: id.optional(), key_id: id.optional() }),
    verify: z.strictObject({
      pattern: requestPattern(),
      count: countRule().optional(),
      since: id.optional(),
    }),
    empty: z.strictObject({}),
  };
};

/** The control API's bodies, all built on the first read of one. */
export const controlBodies = lazyRecord(buildControlBodies);

/** `DELETE /__sandbox/scenarios`: which scenarios to clear (the control token may ride along). */
export const scenarioClearQuery = lazy(() =>
  z.strictObject({
    account_id: fields().id.optional(),
    key_id: fields().id.optional(),
    scope: z.literal('sandbox', { error: "must be 'sandbox'" }).optional(),
    token: z.string().optional(),
  }),
);

/** The ways `webhooks.deliver()` can spoil a message, each of which a handler must reject. */
export const WEBHOOK_TAMPERS = ['signature', 'timestamp-stale', 'timestamp-future', 'body'] as const;

/** The options of the webhook test kit: `sandbox.webhooks.event()`, `.sign()` and `.deliver()`. */
export const webhookKitOptions = lazy(() => {
  const { id, text } = fields();
  const count = z
    .int({ error: 'must be an integer' })
    .min(0, { error: 'must be ≥ 0' })
    .max(10, { error: 'must be ≤ 10' });
  const tamper = z.enum(WEBHOOK_TAMPERS, { error: `must be one of ${WEBHOOK_TAMPERS.join(', ')}` });
  const event = z.looseObject({ id: text, type: text });
  return {
    event: z.strictObject({
      taskId: id.optional(),
      accountId: id.optional(),
      overrides: z.record(z.string(), z.unknown(), { error: 'must be an object' }).optional(),
    }),
    sign: z.strictObject({
      secret: text,
      timestamp: z
        .union([z.int().min(0), z.date()], { error: 'must be whole seconds since 1970 or a Date' })
        .optional(),
    }),
    deliver: z.strictObject({
      secret: text.optional(),
      duplicates: count.optional(),
      reorderWith: z.array(event).max(20).optional(),
      failFirst: count.optional(),
      tamper: z.union([tamper, z.array(tamper)]).optional(),
      timeoutMs: z.int().min(1).max(600_000).optional(),
    }),
    anEvent: event,
  };
});

/** `GET /__sandbox/spend` and `GET /__sandbox/requests/summary`: since a mark, of an account. */
export const assertionQuery = lazy(() =>
  z.strictObject({
    since: fields().id.optional(),
    account_id: fields().id.optional(),
    token: z.string().optional(),
  }),
);

// ---- applying a schema ----

/** Unknown fields named in an error at most: a body with thousands of them gets a short message. */
const NAMED_AT_MOST = 5;

/** The value as the schema reads it, or a `SandboxError` naming the first wrong field: `balance_usd: must be ≥ 0`. */
export function parseInput<S extends z.ZodType>(
  schema: S | LazySchema<S>,
  value: unknown,
  what = 'the input',
): z.output<S> {
  // A `__proto__` key (JSON.parse makes it an own field) would vanish in the parsed copy: refused like any unknown field.
  const hidden = protoKeyIn(value);
  if (hidden !== undefined) throw new SandboxError(`Unknown field '${hidden}' in ${what}.`);
  const result = (typeof schema === 'function' ? schema() : schema).safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new SandboxError(issue ? describeIssue(issue, what) : `Invalid ${what}.`);
}

function describeIssue(issue: z.core.$ZodIssue, what: string): string {
  const field = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const names = issue.keys.slice(0, NAMED_AT_MOST).map((k) => `'${field ? `${field}.${k}` : k}'`.slice(0, 80));
    const more = issue.keys.length - names.length;
    return `Unknown field${issue.keys.length > 1 ? 's' : ''} ${names.join(', ')}${more > 0 ? ` and ${more} more` : ''} in ${what}.`;
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) return `${field || what}: is required.`;
  if (typeof issue.input === 'number' && !Number.isFinite(issue.input))
    return `${field || what}: is not a finite number.`;
  return `${field || what}: ${issue.message}.`;
}

/** The path of the first own `__proto__` key in a parsed JSON value (plain objects and arrays, a bounded depth). */
function protoKeyIn(value: unknown, path = '', depth = 0): string | undefined {
  if (value === null || typeof value !== 'object' || depth > 64) return undefined;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return undefined; // not JSON's
  if (!Array.isArray(value) && Object.hasOwn(value, '__proto__')) return path ? `${path}.__proto__` : '__proto__';
  for (const [k, v] of Object.entries(value)) {
    const found = protoKeyIn(v, path ? `${path}.${k}` : k, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
