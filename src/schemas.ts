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

const clockBody = () =>
  z.union(
    [
      z.strictObject({
        advance: z.union([z.number(), z.string()], { error: 'must be a duration ("90s") or milliseconds' }),
      }),
      z.strictObject({
        set: z.union([z.number(), z.string()], { error: 'must be an ISO 8601 time or epoch milliseconds' }),
      }),
      z.strictObject({}),
    ],
    { error: 'give { "advance": "90s" | ms } or { "set": ISO 8601 }' },
  );

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

/** `GET /__sandbox/spend` and `GET /__sandbox/requests/summary`: since a mark, of an account. */
export const assertionQuery = lazy(() =>
  z.strictObject({
    since: fields().id.optional(),
    account_id: fields().id.optional(),
    token: z.string().optional(),
  }),
);

// ---- applying a schema ----

/** The value as the schema reads it, or a `SandboxError` naming the first wrong field: `balance_usd: must be ≥ 0`. */
export function parseInput<S extends z.ZodType>(
  schema: S | LazySchema<S>,
  value: unknown,
  what = 'the input',
): z.output<S> {
  const result = (typeof schema === 'function' ? schema() : schema).safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new SandboxError(issue ? describeIssue(issue, what) : `Invalid ${what}.`);
}

function describeIssue(issue: z.core.$ZodIssue, what: string): string {
  const field = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const names = issue.keys.map((k) => (field ? `${field}.${k}` : k));
    return `Unknown field${names.length > 1 ? 's' : ''} ${names.map((n) => `'${n}'`).join(', ')} in ${what}.`;
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) return `${field || what}: is required.`;
  return `${field || what}: ${issue.message}.`;
}
