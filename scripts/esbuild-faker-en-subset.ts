import { faker as en } from '@faker-js/faker/locale/en';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import type * as OnDemand from '../src/cli/faker-on-demand.js';

const ON_DEMAND = fileURLToPath(new URL('../src/cli/faker-on-demand.ts', import.meta.url));
/** The shim's export (checked by the type: renaming it there fails here). */
const ON_DEMAND_EXPORT: keyof typeof OnDemand = 'fakerOnDemand';

/**
 * The en definitions the sandbox draws from: none. Agents' names and descriptions (src/model/default-fixtures.ts) and
 * task results (src/rules/results/) are drawn from word banks of the sandbox's own; faker draws only numbers, dates and
 * elements of those banks, which need no definitions.
 */
const USED: Record<string, string[]> = {};

function subset(): Record<string, unknown> {
  const all = en.rawDefinitions as Record<string, Record<string, unknown> | undefined>;
  const picked: Record<string, unknown> = { metadata: all.metadata };
  for (const [module, names] of Object.entries(USED))
    picked[module] = Object.fromEntries(names.map((name) => [name, all[module]?.[name]]));
  return picked;
}

type Build = 'bundled' | 'external' | 'on-demand';

/** The module that replaces `@faker-js/faker/locale/en`: a faker whose only definitions are the subset above. */
function contents(build: Build): string {
  const locale = JSON.stringify(subset());
  // The CLI: faker's code is required on first use (src/cli/faker-on-demand.ts), the definitions are here.
  if (build === 'on-demand')
    return `import { ${ON_DEMAND_EXPORT} } from ${JSON.stringify(ON_DEMAND)};\nexport const faker = ${ON_DEMAND_EXPORT}(${locale});\n`;
  // Bundled, faker's root entry is tree-shaken to its `Faker` class. Left external, the root entry would load every
  // locale at run time: `locale/base` gives the class with only faker's small locale-free definitions.
  return build === 'bundled'
    ? `import { Faker } from '@faker-js/faker';\nexport const faker = new Faker({ locale: ${locale} });\n`
    : `import { faker as base } from '@faker-js/faker/locale/base';\nexport const faker = new base.constructor({ locale: ${locale} });\n`;
}

function plugin(kind: Build): Plugin {
  return {
    name: 'faker-en-subset',
    setup(build) {
      build.onResolve({ filter: /^@faker-js\/faker\/locale\/en$/ }, (args) => ({
        path: args.path,
        namespace: 'faker-en-subset',
      }));
      build.onLoad({ filter: /.*/, namespace: 'faker-en-subset' }, () => ({
        contents: contents(kind),
        resolveDir: process.cwd(),
        loader: 'js',
      }));
    },
  };
}

/**
 * `@faker-js/faker/locale/en` becomes a faker with only the definitions above, taken from that locale at build time.
 * The en locale's other ~280 KB of data are neither shipped nor compiled at every start (≈ 2.4 MiB of RSS, 1.6 MiB of
 * heap per process); the same seed draws the same values (test/cli/cli-start.test.ts compares the CLI's fixtures with the
 * full locale's, seed by seed; test/package/dist-faker.test.ts does the same for the library's build).
 * For the builds that bundle faker's code (the CLI, the CommonJS library): tree-shaken, no other locale.
 */
export const fakerEnSubset: Plugin = plugin('bundled');

/** The same for the builds that leave `@faker-js/faker` external (the ESM library: index, browser, server, vitest). */
export const fakerEnSubsetExternal: Plugin = plugin('external');

/**
 * The CLI's build: the same definitions, with faker's code required only when something draws (a seed other than the
 * default one, `fixtures export`), so that a start neither loads nor compiles it (test/cli/cli-start.test.ts).
 */
export const fakerEnSubsetOnDemand: Plugin = plugin('on-demand');
