import type { Faker } from '@faker-js/faker';
import empty from '../../fixtures/empty.json';
import marketplace from '../../fixtures/marketplace.json';
import { generateDefaultFixtures } from './default-fixtures.js';
import { FixtureError, parseFixtureSet, type FixtureSet } from './fixture-schema.js';

/** The fixture sets bundled with the library (JSON imports, so they work in a browser too). */
const BUNDLED: Record<string, unknown> = { marketplace, empty };

/** The fixture sets bundled with the library, by name. */
export type FixtureSetName = 'default' | 'marketplace' | 'empty';

/** Names `fixtures` may take: `default` is generated from the seed, the others are `fixtures/<name>.json`. */
export const FIXTURE_SET_NAMES: readonly FixtureSetName[] = ['default', 'marketplace', 'empty'];

const parsed = new Map<string, FixtureSet>();

export function isFixtureSetName(value: unknown): value is FixtureSetName {
  return typeof value === 'string' && (FIXTURE_SET_NAMES as readonly string[]).includes(value);
}

/** A bundled set by name (validated once per process, then shared: state is built from it, never into it). */
export function bundledFixtureSet(name: string, seed: number, faker?: Faker): FixtureSet {
  if (name === 'default') return generateDefaultFixtures(seed, faker);
  const raw = BUNDLED[name];
  if (raw === undefined)
    throw new FixtureError(
      `Unknown fixture set "${name}". Bundled sets: ${FIXTURE_SET_NAMES.join(', ')}; or give a fixture object.`,
    );
  let set = parsed.get(name);
  if (!set) {
    set = parseFixtureSet(raw, `fixtures/${name}.json`);
    parsed.set(name, set);
  }
  return set;
}
