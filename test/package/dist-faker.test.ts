/**
 * Every build of the library carries a faker with only the en definitions the sandbox draws from
 * (scripts/esbuild-faker-en-subset.ts): the built package must draw, seed by seed, the fixtures that the sources draw
 * with faker's full en locale (this file imports the sources, which vitest runs against the real locale).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, expect, it } from 'vitest';
import { ROOT, ensureBuilt } from '../support/built.js';
import { DEFAULT_SEED, generateDefaultFixtures } from '../../src/model/default-fixtures.js';

beforeAll(ensureBuilt, 120_000);

const SEEDS = [DEFAULT_SEED, 7, 90210];
type Generate = typeof generateDefaultFixtures;

it('the ESM build draws the default fixtures of the full en locale, seed by seed', async () => {
  const built = (await import(pathToFileURL(join(ROOT, 'dist', 'index.js')).href)) as {
    generateDefaultFixtures: Generate;
  };
  for (const seed of SEEDS) expect(built.generateDefaultFixtures(seed)).toEqual(generateDefaultFixtures(seed));
});

it('the CommonJS build draws the default fixtures of the full en locale, seed by seed', () => {
  const built = createRequire(import.meta.url)(join(ROOT, 'dist', 'index.cjs')) as {
    generateDefaultFixtures: Generate;
  };
  for (const seed of SEEDS) expect(built.generateDefaultFixtures(seed)).toEqual(generateDefaultFixtures(seed));
});

it("no build ships faker's full en locale", () => {
  const files = readdirSync(join(ROOT, 'dist')).filter((f) => /\.(c?js)$/.test(f));
  for (const file of files) {
    const text = readFileSync(join(ROOT, 'dist', file), 'utf8');
    expect(text, file).not.toMatch(/@faker-js\/faker\/locale\/en['"]/);
    // A name of the en locale that the sandbox never draws (its airlines; base16's CommonJS build carried it).
    expect(text, file).not.toContain('Aeroflot');
  }
});
