import { defineConfig } from 'tsup';
import { rawText } from './scripts/esbuild-raw.js';
import { zodOnDemand } from './scripts/esbuild-zod-on-demand.js';
import { builtinsWithoutFacade } from './scripts/esbuild-builtins.js';
import { fakerEnSubset, fakerEnSubsetExternal, fakerEnSubsetOnDemand } from './scripts/esbuild-faker-en-subset.js';

// The library: the browser-safe entries (`index`, `browser`, and `fetch`: the sandbox without msw), `server` (Node: `agent-work-sandbox/server`, which
// `sandbox.listen()` loads on demand) and `vitest` (the test-runner helper, Node: it uses msw/node). Declarations for
// both formats.
const library = {
  entry: {
    index: 'src/index.ts',
    browser: 'src/browser.ts',
    fetch: 'src/fetch.ts',
    server: 'src/server.ts',
    testing: 'src/testing.ts',
    matchers: 'src/matchers.ts',
  },
  // `node scripts/build.mjs --js` (before `npm start`) leaves the declarations out: they are most of a build's time.
  dts: process.env.BUILD_DECLARATIONS !== '0',
  // No source maps in the package: they were 60 % of the tarball and carried the build machine's paths.
  sourcemap: false,
  target: 'node20',
  splitting: true,
} as const;

// Every build's faker carries only the en definitions the sandbox draws from (scripts/esbuild-faker-en-subset.ts).
export default defineConfig([
  {
    ...library,
    format: ['esm'],
    clean: true,
    // Only the en entry reaches the plugin: faker itself stays a dependency, its class loaded from `locale/base`.
    noExternal: [/^@faker-js\/faker\/locale\/en$/],
    esbuildPlugins: [rawText, fakerEnSubsetExternal] as (typeof rawText)[],
  },
  {
    ...library,
    format: ['cjs'],
    esbuildPlugins: [rawText, fakerEnSubset] as (typeof rawText)[],
    // @faker-js/faker 10 is ESM-only: Node ≥ 20.19 can require() it, Jest's module system cannot. The CommonJS build
    // carries it inside, so that `require('agent-work-sandbox')` works under Jest with STACK.md's recipe alone.
    noExternal: ['@faker-js/faker'],
  },
  {
    // The CLI: ESM with its shebang. It imports its dependencies (express, msw, zod, faker…) from `dependencies`
    // instead of inlining them; express and the control API are a chunk loaded after the socket listens, and zod is
    // required on first use (scripts/esbuild-zod-on-demand.ts): the first answer loads neither (test/cli/cli-start.test.ts).
    entry: { cli: 'src/cli/bin.ts' },
    format: ['esm'],
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
    // zod and faker reach the plugins: zod becomes the shim (which requires the package itself); faker's en locale
    // becomes the definitions the sandbox uses, with faker's code required on first use (a default start draws
    // nothing: scripts/esbuild-faker-en-subset.ts). `ms` is bundled: a CommonJS package imported from an ES module
    // costs the start node's CommonJS loader and its export lexer (~5 ms).
    noExternal: ['zod', '@faker-js/faker', 'ms'],
    esbuildPlugins: [rawText, zodOnDemand, fakerEnSubsetOnDemand, builtinsWithoutFacade] as (typeof rawText)[],
    // `node:` imports reach builtinsWithoutFacade (tsup would strip the prefix and leave them external first).
    removeNodeProtocol: false,
  },
]);
