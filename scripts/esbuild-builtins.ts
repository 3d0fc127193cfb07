import { createRequire } from 'node:module';
import type { Plugin } from 'esbuild';

const load = createRequire(import.meta.url);

/** The names of a built-in module's exports (as this build's node has them). */
function exportNames(id: string): string[] {
  return Object.keys(load(id) as object).filter((name) => /^[A-Za-z_][\w$]*$/.test(name) && name !== 'default');
}

/**
 * The module that replaces `import … from 'node:x'`: node's own module object, and each export read from it by a call
 * marked pure, so that the bundle keeps (and the start reads) only the names the CLI imports: reading all of them,
 * as node's facade does, runs lazy getters (`fs.ReadStream` loads the file streams, `fs.promises` the promises API).
 */
function contents(id: string): string {
  const spec = JSON.stringify(id);
  return [
    // `$` names: no built-in exports a name that starts with one.
    `const $process = globalThis.process;`,
    `const $module = typeof $process?.getBuiltinModule === 'function' ? $process.getBuiltinModule(${spec}) : (await import(${spec})).default;`,
    `const $read = (name) => $module[name];`,
    `export default $module;`,
    ...exportNames(id).map((name) => `export const ${name} = /* @__PURE__ */ $read(${JSON.stringify(name)});`),
  ].join('\n');
}

/**
 * The CLI's build: `import { x } from 'node:fs'` takes node's module object from `process.getBuiltinModule` (Node ≥
 * 20.16) instead of through node's ES-module facade of it, which reads every export once, lazy ones included (the
 * facade of `node:fs` loads the file streams): about 4 ms of a start for the dozen built-ins the CLI imports
 * (docs/benchmarks.md). Where there is no `getBuiltinModule`, the module is imported as before.
 */
export const builtinsWithoutFacade: Plugin = {
  name: 'builtins-without-facade',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) =>
      args.namespace === 'builtin' ? { path: args.path, external: true } : { path: args.path, namespace: 'builtin' },
    );
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({ contents: contents(args.path), loader: 'js' }));
  },
};
