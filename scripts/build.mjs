#!/usr/bin/env node
/**
 * Builds dist/ when it is missing or older than its sources, and says so before it starts.
 *
 *   node scripts/build.mjs        the whole package: JavaScript and type declarations (`pretest`, `prepack`)
 *   node scripts/build.mjs --js   JavaScript only, without declarations (`prestart`): what running the CLI needs
 *
 * The package has no install-time script: `npm install` in a clone only installs, and consumers who install the
 * tarball get no install-script warning. The declarations are the slow part of a build, so they are built when the
 * tests or `npm pack` need them, and a fresh build is reused (`npm pack` after `npm test` builds nothing).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STAMP = join(ROOT, 'dist', '.build.json');
const jsOnly = process.argv.includes('--js');

/** The newest modification time among the files a build reads. */
function newestInput() {
  let newest = 0;
  const visit = (path) => {
    const stat = statSync(path);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const path of ['src', 'fixtures', 'scripts', 'tsup.config.ts', 'package.json', 'tsconfig.json'])
    if (existsSync(join(ROOT, path))) visit(join(ROOT, path));
  return newest;
}

/** True when dist/ holds a build of at least this kind, newer than every input. */
function fresh() {
  if (!existsSync(STAMP)) return false;
  const stamp = JSON.parse(readFileSync(STAMP, 'utf8'));
  if (!jsOnly && stamp.kind !== 'full') return false;
  return statSync(STAMP).mtimeMs >= newestInput();
}

if (!fresh()) {
  const what = jsOnly ? 'JavaScript' : 'JavaScript and type declarations';
  process.stdout.write(`Building dist/ (${what})${jsOnly ? '' : '; the declarations take a minute or so'}…\n`);
  const started = Date.now();
  const tsup = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'tsup', 'dist', 'cli-default.js')], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...(jsOnly ? { BUILD_DECLARATIONS: '0' } : {}) },
  });
  if (tsup.status !== 0) process.exit(tsup.status ?? 1);
  writeFileSync(STAMP, JSON.stringify({ kind: jsOnly ? 'js' : 'full' }) + '\n');
  process.stdout.write(`Built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
}
