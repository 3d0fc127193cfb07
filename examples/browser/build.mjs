// Builds the browser example: bundles main.js with esbuild (from node_modules) into OUTDIR (default ./public),
// copies index.html there, and writes mockServiceWorker.js with `npx msw init`.
//   node examples/browser/build.mjs [OUTDIR]
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');

export async function buildExample(outdir = join(here, 'public')) {
  mkdirSync(outdir, { recursive: true });
  if (resolve(outdir) !== join(here, 'public'))
    copyFileSync(join(here, 'public/index.html'), join(outdir, 'index.html'));
  await build({
    entryPoints: { main: join(here, 'main.js') },
    outdir,
    bundle: true,
    format: 'esm',
    // The Node server (sandbox.listen) is a lazily loaded chunk of the package: with splitting it stays a chunk the page
    // never loads, and its Node imports stay external.
    splitting: true,
    platform: 'browser',
    target: 'es2022',
    // In this repository, the package is its own build (npx tsup); a consumer's bundler finds it in node_modules.
    alias: { 'agent-work-sandbox': join(root, 'dist/index.js') },
    external: ['node:*', 'http', 'crypto', 'express', 'cors'],
    logLevel: 'error',
  });
  execFileSync('npx', ['msw', 'init', outdir, '--no-save'], { cwd: root, stdio: 'ignore' });
  return outdir;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outdir = await buildExample(process.argv[2] ? resolve(process.argv[2]) : undefined);
  console.log(`Built into ${outdir}. Serve it with: node examples/browser/serve.mjs ${outdir}`);
}
