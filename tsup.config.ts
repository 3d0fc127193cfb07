import { defineConfig } from 'tsup';
import { rawText } from './scripts/esbuild-raw.js';

// The library: runtime-neutral entry, plus `vitest` (the test-runner helper, `agent-work-sandbox/vitest`, Node: it
// uses msw/node). Declarations for both formats; the Node server is a lazily loaded chunk.
const library = {
  entry: { index: 'src/index.ts', vitest: 'src/vitest.ts' },
  dts: true,
  sourcemap: true,
  target: 'node20',
  splitting: true,
  esbuildPlugins: [rawText] as (typeof rawText)[],
} as const;

export default defineConfig([
  { ...library, format: ['esm'], clean: true },
  {
    ...library,
    format: ['cjs'],
    // @faker-js/faker 10 is ESM-only: Node ≥ 20.19 can require() it, Jest's module system cannot. The CommonJS build
    // carries it inside, so that `require('agent-work-sandbox')` works under Jest with STACK.md's recipe alone.
    noExternal: ['@faker-js/faker'],
  },
  {
    // The CLI: one ESM file with its shebang, its dependencies bundled in (fewer files to resolve and read at start;
    // express and the control API are a chunk loaded after the socket listens). `require` serves bundled CommonJS.
    entry: { cli: 'src/cli/bin.ts' },
    format: ['esm'],
    target: 'node20',
    noExternal: [/.*/],
    banner: { js: "#!/usr/bin/env node\nimport { createRequire as __awsCreateRequire } from 'node:module';\nconst require = __awsCreateRequire(import.meta.url);" },
    sourcemap: true,
    esbuildPlugins: [rawText],
  },
]);
