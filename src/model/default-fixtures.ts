import { faker as sharedEn } from '@faker-js/faker/locale/en';
import type { Faker } from '@faker-js/faker';
import type { FixtureAgent, FixtureKey, FixtureSet } from './fixture-schema.js';
import type { ModelId } from './models.js';
import { seededId, seededKey } from './random.js';
import { DEFAULT_SEED_AGENTS } from './default-agents.js';
import { lazyObject } from './lazy.js';
import { SCOPES } from './scopes.js';
import { AGENT_WORDS, AUDIENCES, MODEL_NOTES } from './agent-words.js';
import { CAPABILITIES } from './result-types.js';

/**
 * The scenarios that have a magic key in the default fixtures, in catalogue order (a test checks it against the
 * catalogue; `model/` cannot import `scenarios/`).
 */
export const MAGIC_KEY_SCENARIOS = [
  'out-of-credits',
  'rate-limited',
  'revoked-key',
  'read-only-key',
  'free-plan',
  'slow-tasks',
  'failing-tasks',
  'latency',
  'server-error',
  'unavailable',
  'network-error',
  'empty-catalog',
] as const;

export const MAGIC_ACCOUNT = 'acc_magic';

/** How often each model runs a generated agent: mostly the small general model. */
const MODEL_WEIGHTS: readonly { weight: number; value: ModelId }[] = [
  { weight: 3, value: 'model-b' },
  { weight: 2, value: 'model-a' },
  { weight: 1, value: 'model-c' },
];

/** The fixed value of a magic key: the same for every seed, so a client can hard-code it (`ak_magic_rate_limited`). */
export function magicKey(scenario: string): string {
  return `ak_magic_${scenario.replaceAll('-', '_')}`;
}

/** The magic keys: an admin key per scenario on an Enterprise account, labelled `magic:<scenario>`. */
export function magicKeys(): FixtureKey[] {
  return MAGIC_KEY_SCENARIOS.map((scenario) => ({
    id: `key_magic_${scenario.replaceAll('-', '_')}`,
    key: magicKey(scenario),
    account_id: MAGIC_ACCOUNT,
    scopes: ['admin'],
    label: `magic:${scenario}`,
    scenario,
  }));
}

/** The seed a sandbox uses unless told otherwise. */
export const DEFAULT_SEED = 1;
const DEFAULT_AGENT_COUNT = 24;

// Agents' created_at are drawn between these, never from the clock: the catalog is the same bytes at any time.
const CATALOG_FROM = '2025-01-01T00:00:00.000Z';
const CATALOG_TO = '2025-12-31T23:59:59.000Z';

/** The closing remark of a description: how the agent works. */
const TRAITS = [
  'Flags anything it is unsure about.',
  'Follows your glossary and style guide.',
  'Keeps a consistent style across tasks.',
  'Returns plain text or JSON, as asked.',
  'Shows its work so a reviewer can check it.',
];

/**
 * A faker instance of the sandbox's own, so seeding it never moves the stream of a consumer's `faker`.
 * (The en locale entry is imported instead of the package root, which loads every locale.)
 * Made on first use: a sandbox of the default seed never draws from it (its agents are prebuilt), and the CLI's build
 * then never loads faker's code (scripts/esbuild-faker-en-subset.ts).
 */
export function createFaker(): Faker {
  return lazyObject(() => {
    const FakerClass = sharedEn.constructor as new (options: { locale: Faker['rawDefinitions'] }) => Faker;
    return new FakerClass({ locale: sharedEn.rawDefinitions });
  });
}

/**
 * Plain code-unit order: ISO times and `agt_` ids sort the same as with `localeCompare`, which loads ICU's collation
 * on first use (a cost in the CLI's start).
 */
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The agents of the default fixtures drawn from `seed` with `faker` (re-seeded here), sorted by creation time.
 * DEFAULT_SEED's are prebuilt (default-agents.ts; a test draws them again and compares).
 */
export function drawAgents(seed: number, faker: Faker, agentCount = DEFAULT_AGENT_COUNT): FixtureAgent[] {
  faker.seed(seed);
  const agents: FixtureAgent[] = [];
  for (let i = 0; i < agentCount; i++) {
    const capabilities = faker.helpers.arrayElements([...CAPABILITIES], { min: 1, max: 3 });
    const model = faker.helpers.weightedArrayElement(MODEL_WEIGHTS);
    const outputMin = faker.number.int({ min: 100, max: 500 });
    agents.push({
      id: seededId('agt', seed, `agent:${i}`),
      ...nameAndDescription(faker, capabilities, model),
      capabilities,
      model,
      status: faker.number.int({ min: 1, max: 10 }) <= 9 ? 'available' : 'unavailable',
      created_at: faker.date.between({ from: CATALOG_FROM, to: CATALOG_TO }).toISOString(),
      tokens: {
        overhead: faker.number.int({ min: 50, max: 400 }),
        output_min: outputMin,
        output_max: outputMin + faker.number.int({ min: 500, max: 3500 }),
      },
    });
  }
  return agents.sort((a, b) => byCodeUnits(a.created_at, b.created_at) || byCodeUnits(a.id, b.id));
}

/** A fresh copy of the prebuilt agents of DEFAULT_SEED (callers own what they get, as with drawn ones). */
function prebuiltAgents(): FixtureAgent[] {
  return DEFAULT_SEED_AGENTS.map((a) => ({ ...a, capabilities: [...a.capabilities], tokens: { ...a.tokens } }));
}

/**
 * The default fixture set, generated from the seed: four accounts (one per plan), ready keys, a catalog of agents.
 * Without a `faker` of the caller's, DEFAULT_SEED's agents are the prebuilt ones: the same values, without faker.
 */
export function generateDefaultFixtures(seed: number, faker?: Faker, agentCount = DEFAULT_AGENT_COUNT): FixtureSet {
  const agents =
    faker === undefined && seed === DEFAULT_SEED && agentCount === DEFAULT_AGENT_COUNT
      ? prebuiltAgents()
      : drawAgents(seed, faker ?? createFaker(), agentCount);

  const key = (accountId: string, label: string, scopes: FixtureKey['scopes']): FixtureKey => ({
    id: `key_${accountId.slice(4)}_${label.replace(':', '_')}`,
    key: seededKey(seed, `key:${accountId}:${label}`),
    account_id: accountId,
    scopes,
    label,
  });
  return {
    name: 'default',
    description: `Generated from seed ${seed}: one account per plan, an admin key and one key per scope on the Pro account, magic keys (one per scenario) on ${MAGIC_ACCOUNT}, ${agentCount} agents.`,
    accounts: [
      { id: 'acc_demo', name: 'Demo Workspace (Pro)', plan: 'pro' },
      { id: 'acc_free', name: 'Free Tier Co', plan: 'free' },
      { id: 'acc_starter', name: 'Starter Studio', plan: 'starter' },
      { id: 'acc_enterprise', name: 'Enterprise Corp', plan: 'enterprise' },
      { id: MAGIC_ACCOUNT, name: 'Magic Keys (Enterprise)', plan: 'enterprise' },
    ],
    keys: [
      key('acc_demo', 'admin', ['admin']),
      ...SCOPES.filter((s) => s !== 'admin').map((s) => key('acc_demo', s, [s])),
      key('acc_free', 'admin', ['admin']),
      key('acc_starter', 'admin', ['admin']),
      key('acc_enterprise', 'admin', ['admin']),
      ...magicKeys(),
    ],
    agents,
  };
}

/**
 * A name and a description that say what an agent does, from its first capability, the others and its model. Five
 * draws, as many as the words they replace took, so that the rest of each agent is what the seed drew before.
 */
function nameAndDescription(faker: Faker, capabilities: string[], model: ModelId) {
  const [first = 'summarization', ...others] = capabilities;
  const words = AGENT_WORDS[first] ?? AGENT_WORDS.summarization;
  const name = `${faker.helpers.arrayElement(words?.prefixes ?? [''])} ${faker.helpers.arrayElement(words?.roles ?? [''])}`;
  const does = faker.helpers.arrayElement(words?.does ?? ['']);
  const audience = faker.helpers.arrayElement(AUDIENCES);
  const trait = faker.helpers.arrayElement(TRAITS);
  const also = others.length > 0 ? ` Also handles ${others.map((c) => c.replaceAll('-', ' ')).join(' and ')}.` : '';
  return { name, description: `${does}, built ${audience}.${also} ${trait} ${MODEL_NOTES[model] ?? ''}`.trim() };
}
