/**
 * `@faker-js/faker/locale/en` as the CLI's build resolves it (tsup.config.ts, scripts/esbuild-faker-en-subset.ts): a
 * faker with only the en definitions the sandbox draws from, whose code is required on first use. A start with the
 * default seed draws nothing (its agents are prebuilt: src/model/default-agents.ts) and reads none of the definitions,
 * so it neither loads nor compiles faker; `--seed N` or `fixtures export` load it then, synchronously
 * (`@faker-js/faker/locale/base`, an ES module: Node ≥ 20.19 requires those).
 */
import { createRequire } from 'node:module';
import type { Faker } from '@faker-js/faker';
import { madeOnFirstUse } from '../model/on-first-use.js';

const load = createRequire(import.meta.url);

type FakerClass = new (options: { locale: Faker['rawDefinitions'] }) => Faker;

export function fakerOnDemand(locale: Faker['rawDefinitions']): Faker {
  return madeOnFirstUse(
    () => {
      const base = (load('@faker-js/faker/locale/base') as { faker: Faker }).faker;
      return new (base.constructor as FakerClass)({ locale });
    },
    { rawDefinitions: locale },
  );
}
