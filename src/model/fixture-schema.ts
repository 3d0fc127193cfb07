import { FixtureError } from '../errors.js';
import { z } from 'zod';
import { lazy } from './lazy.js';
import { MODEL_IDS } from './models.js';
import { PLAN_IDS } from './plans.js';
import { SCOPES } from './scopes.js';

/** The fixture set's schemas, built on first use (a fixture file or object given), not when imported. */
const schemas = lazy(() => {
  /**
   * Scenarios a fixture account or key is set up for (one name or a list): applied to it, and only to it, when the
   * sandbox starts and again on `reset()`. The names are checked against the scenario catalogue by the sandbox.
   */
  const FixtureScenarioSchema = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

  /** A fixture set: the demo data a sandbox starts from (JSON, snake_case, USD). */
  const FixtureAccountSchema = z.strictObject({
    id: z.string().regex(/^acc_[A-Za-z0-9_-]+$/, 'must look like acc_<id>'),
    name: z.string().min(1),
    plan: z.enum(PLAN_IDS as [string, ...string[]]),
    /** Defaults to the plan's monthly credits. */
    balance_usd: z.number().nonnegative().optional(),
    limits: z
      .strictObject({ rpm: z.number().int().positive().optional(), tpm: z.number().int().positive().optional() })
      .optional(),
    scenario: FixtureScenarioSchema.optional(),
  });

  const FixtureKeySchema = z.strictObject({
    id: z.string().regex(/^key_[A-Za-z0-9_-]+$/, 'must look like key_<id>'),
    key: z.string().regex(/^ak_[A-Za-z0-9_-]+$/, 'must look like ak_<body>'),
    account_id: z.string(),
    scopes: z.array(z.enum(SCOPES)).min(1),
    label: z.string().optional(),
    revoked: z.boolean().optional(),
    /** A magic key: every request with it runs under this scenario (or these). */
    scenario: FixtureScenarioSchema.optional(),
  });

  const FixtureAgentSchema = z.strictObject({
    id: z.string().regex(/^agt_[A-Za-z0-9_-]+$/, 'must look like agt_<id>'),
    name: z.string().min(1),
    description: z.string(),
    capabilities: z.array(z.string()),
    model: z.enum(MODEL_IDS as [string, ...string[]]),
    status: z.enum(['available', 'unavailable']),
    created_at: z.iso.datetime(),
    tokens: z.strictObject({
      overhead: z.number().int().nonnegative(),
      output_min: z.number().int().nonnegative(),
      output_max: z.number().int().nonnegative(),
    }),
  });

  const FixtureSetSchema = z.strictObject({
    $schema: z.string().optional(),
    name: z.string().optional(),
    description: z.string().optional(),
    accounts: z.array(FixtureAccountSchema).min(1),
    keys: z.array(FixtureKeySchema),
    agents: z.array(FixtureAgentSchema),
  });
  return { FixtureSetSchema, FixtureAccountSchema, FixtureKeySchema, FixtureAgentSchema };
});

/** A fixture set: the demo data a sandbox starts from (JSON, snake_case, USD). */
export const fixtureSetSchema = () => schemas().FixtureSetSchema;

type Schemas = ReturnType<typeof schemas>;
export type FixtureSet = z.infer<Schemas['FixtureSetSchema']>;
export type FixtureKey = z.infer<Schemas['FixtureKeySchema']>;
export type FixtureAgent = z.infer<Schemas['FixtureAgentSchema']>;

export { FixtureError };

/**
 * Validates a fixture set; throws a FixtureError whose message names the source, the path in it and what is wrong.
 */
export function parseFixtureSet(input: unknown, source = 'fixtures'): FixtureSet {
  const parsed = fixtureSetSchema().safeParse(input);
  if (!parsed.success) {
    const lines = parsed.error.issues.slice(0, 10).map((issue) => `  at ${formatPath(issue.path)}: ${issue.message}`);
    throw new FixtureError(`Invalid fixture set ${source}:\n${lines.join('\n')}`);
  }
  const set = parsed.data;
  const problems: string[] = [];
  const accountIds = new Set<string>();
  set.accounts.forEach((a, i) => {
    if (accountIds.has(a.id)) problems.push(`  at accounts[${i}].id: duplicate account id "${a.id}"`);
    accountIds.add(a.id);
  });
  const keyIds = new Set<string>();
  const keyValues = new Set<string>();
  set.keys.forEach((k, i) => {
    if (keyIds.has(k.id)) problems.push(`  at keys[${i}].id: duplicate key id "${k.id}"`);
    if (keyValues.has(k.key)) problems.push(`  at keys[${i}].key: duplicate key value`);
    if (!accountIds.has(k.account_id))
      problems.push(`  at keys[${i}].account_id: no account "${k.account_id}" in accounts`);
    keyIds.add(k.id);
    keyValues.add(k.key);
  });
  const agentIds = new Set<string>();
  set.agents.forEach((a, i) => {
    if (agentIds.has(a.id)) problems.push(`  at agents[${i}].id: duplicate agent id "${a.id}"`);
    if (a.tokens.output_max < a.tokens.output_min)
      problems.push(`  at agents[${i}].tokens.output_max: must be ≥ output_min`);
    agentIds.add(a.id);
  });
  if (problems.length > 0)
    throw new FixtureError(`Invalid fixture set ${source}:\n${problems.slice(0, 10).join('\n')}`);
  return set;
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}
