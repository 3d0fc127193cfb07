import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
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
      const path = spec.startsWith('.')
        ? resolve(args.resolveDir, spec)
        : require.resolve(spec, { paths: [args.resolveDir] });
      // The path keeps its `?raw` (tsup's own CSS loader takes any path that ends in `.css`) and is relative to the
      // project, because esbuild writes it into the bundle as a comment: no build machine's path in the package.
      return {
        path: `${relative(process.cwd(), path)}?raw`,
        namespace: 'raw-text',
        pluginData: path,
        watchFiles: [path],
      };
    });
    build.onLoad({ filter: /.*/, namespace: 'raw-text' }, async (args) => {
      const path = args.pluginData as string;
      return { contents: await readFile(path, 'utf8'), loader: 'text', resolveDir: dirname(path) };
    });
  },
};
