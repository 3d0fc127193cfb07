import { defineConfig } from 'tsup';

export default defineConfig([
  {
    // The library: runtime-neutral entry, ESM + CJS + declarations. The Node server is a lazily loaded chunk.
    // `vitest` is the test-runner helper (`agent-work-sandbox/vitest`, Node: it uses msw/node).
    entry: { index: 'src/index.ts', vitest: 'src/vitest.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    splitting: true,
  },
  {
    // The CLI: one ESM file with its shebang.
    entry: { cli: 'src/cli/bin.ts' },
    format: ['esm'],
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    sourcemap: true,
  },
]);
