import { faker as en } from '@faker-js/faker/locale/en';
import type { Plugin } from 'esbuild';

/**
 * The en definitions the sandbox draws from (src/model/default-fixtures.ts: agent names and descriptions, the words of
 * task results): `faker.word.adjective()`, `faker.company.catchPhrase()` and the lorem words.
 */
const USED: Record<string, string[]> = {
  word: ['adjective'],
  company: ['adjective', 'descriptor', 'noun'],
  lorem: ['word'],
};

function subset(): Record<string, unknown> {
  const all = en.rawDefinitions as Record<string, Record<string, unknown> | undefined>;
  const picked: Record<string, unknown> = { metadata: all.metadata };
  for (const [module, names] of Object.entries(USED))
    picked[module] = Object.fromEntries(names.map((name) => [name, all[module]?.[name]]));
  return picked;
}

/**
 * The CLI's build: `@faker-js/faker/locale/en` becomes a faker with only the definitions above, taken from that
 * locale at build time, and faker's code bundled (tree-shaken, no other locale). The en locale's other ~280 KB of data
 * are not compiled at every start; the same seed draws the same values (test/cli-start.test.ts compares the CLI's
 * fixtures with the library's).
 */
export const fakerEnSubset: Plugin = {
  name: 'faker-en-subset',
  setup(build) {
    build.onResolve({ filter: /^@faker-js\/faker\/locale\/en$/ }, (args) => ({
      path: args.path,
      namespace: 'faker-en-subset',
    }));
    build.onLoad({ filter: /.*/, namespace: 'faker-en-subset' }, () => ({
      contents: `import { Faker } from '@faker-js/faker';\nexport const faker = new Faker({ locale: ${JSON.stringify(subset())} });\n`,
      resolveDir: process.cwd(),
      loader: 'js',
    }));
  },
};
