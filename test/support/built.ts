/**
 * The built package, for tests that run `dist/` (the CLI executable, the packed tarball, the browser bundle).
 * `npm test` builds it first (`pretest`); a test run on its own builds it when it is missing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = join(ROOT, 'dist', 'cli.js');

const OUTPUTS = [
  'cli.js',
  'index.js',
  'index.cjs',
  'fetch.js',
  'fetch.cjs',
  'browser.js',
  'server.js',
  'testing.js',
].map((f) => join(ROOT, 'dist', f));

/** Runs `npx tsup` when any output of the build is missing. */
export function ensureBuilt(): void {
  if (OUTPUTS.some((f) => !existsSync(f))) execFileSync('npx', ['tsup'], { cwd: ROOT, stdio: 'ignore' });
}
