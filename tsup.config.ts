import { defineConfig } from 'tsup';

// The library: the browser-safe entries (`index`, `browser`), `server` (Node: `agent-work-sandbox/server`, which
// `sandbox.listen()` loads on demand) and `vitest` (the test-runner helper, Node: it uses msw/node). Declarations for
// both formats.
const library = {
  entry: { index: 'src/index.ts', browser: 'src/browser.ts', server: 'src/server.ts', vitest: 'src/vitest.ts' },
  dts: true,
  sourcemap: true,
  target: 'node20',
  splitting: true,
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
  },
]);
