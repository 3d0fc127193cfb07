/**
 * The default seed's agents are prebuilt (src/model/default-agents.ts, written by scripts/generate-default-agents.ts)
 * so that a start builds its catalog without faker: they must be, byte for byte, what faker's en locale draws for that
 * seed, or the generated module has drifted (regenerate it: see the script).
 */
import { expect, it } from 'vitest';
import { DEFAULT_SEED_AGENTS } from '../src/model/default-agents.js';
import { createFaker, DEFAULT_SEED, drawAgents, generateDefaultFixtures } from '../src/model/default-fixtures.js';
import { madeOnFirstUse } from '../src/model/on-first-use.js';

it('the prebuilt agents of the default seed are exactly what faker draws for it (same values, same key order)', () => {
  expect(JSON.stringify(DEFAULT_SEED_AGENTS)).toBe(JSON.stringify(drawAgents(DEFAULT_SEED, createFaker())));
  expect(DEFAULT_SEED_AGENTS).toHaveLength(24);
});

it('the default fixtures of the default seed are the same bytes with or without the prebuilt agents', () => {
  const drawn = generateDefaultFixtures(DEFAULT_SEED, createFaker());
  expect(JSON.stringify(generateDefaultFixtures(DEFAULT_SEED))).toBe(JSON.stringify(drawn));
});

it('every call gets agents of its own: changing one set leaves the next untouched', () => {
  const first = generateDefaultFixtures(DEFAULT_SEED);
  first.agents[0]!.capabilities.push('changed');
  first.agents[0]!.tokens.overhead = -1;
  const second = generateDefaultFixtures(DEFAULT_SEED);
  expect(second.agents[0]!.capabilities).not.toContain('changed');
  expect(second.agents[0]!.tokens.overhead).toBe(DEFAULT_SEED_AGENTS[0]!.tokens.overhead);
});

it('other seeds are still drawn with faker, each its own catalog', () => {
  const seven = generateDefaultFixtures(7);
  expect(seven.agents).toHaveLength(24);
  expect(JSON.stringify(seven.agents)).toBe(JSON.stringify(drawAgents(7, createFaker())));
  expect(seven.agents.map((a) => a.id)).not.toEqual(DEFAULT_SEED_AGENTS.map((a) => a.id));
});

it('an object made on first use is made once, at its first read, and its methods keep their own `this`', () => {
  let made = 0;
  const lazy = madeOnFirstUse(
    () => {
      made += 1;
      return {
        n: 2,
        twice(this: { n: number }) {
          return this.n * 2;
        },
      };
    },
    { n: 5 },
  );
  expect(made).toBe(0);
  expect(lazy.n).toBe(5); // given ready: no make
  expect(made).toBe(0);
  expect(lazy.twice()).toBe(4);
  expect(lazy.twice()).toBe(4);
  expect(made).toBe(1);
});
