import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import type { Plugin } from 'esbuild';

const require = createRequire(import.meta.url);

/**
 * `import text from './file.html?raw'` (and `'package/file.js?raw'`) as a string, like Vite's `?raw`: the inspector's
 * page, script, styles and uPlot go into the bundle as text, so the server reads no file at run time.
 */
export const rawText: Plugin = {
  name: 'raw-text',
  setup(build) {
    build.onResolve({ filter: /\?raw$/ }, (args) => {
      const spec = args.path.slice(0, -'?raw'.length);
      const path = spec.startsWith('.') ? resolve(args.resolveDir, spec) : require.resolve(spec, { paths: [args.resolveDir] });
      return { path, namespace: 'raw-text', watchFiles: [path] };
    });
    build.onLoad({ filter: /.*/, namespace: 'raw-text' }, async (args) => ({ contents: await readFile(args.path, 'utf8'), loader: 'text', resolveDir: dirname(args.path) }));
  },
};
