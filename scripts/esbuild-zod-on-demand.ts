import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

const SHIM = fileURLToPath(new URL('../src/cli/zod-on-demand.ts', import.meta.url));

/**
 * The CLI's build: `import { z } from 'zod'` in the sources resolves to src/cli/zod-on-demand.ts, which requires zod on
 * first use, so that the server's start does not load it (the library's builds import zod as it is).
 */
export const zodOnDemand: Plugin = {
  name: 'zod-on-demand',
  setup(build) {
    build.onResolve({ filter: /^zod$/ }, (args) => (args.importer === SHIM ? undefined : { path: SHIM }));
  },
};
