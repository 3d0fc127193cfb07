import { defineConfig } from 'tsup';

export default defineConfig([
  {
    // The library: runtime-neutral entry, ESM + CJS + declarations. The Node server is a lazily loaded chunk.
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    splitting: true,
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
