/**
 * Consumer tests: `npm pack`, install the tarball into a fresh temporary project beside msw, vitest, jest and axios
 * (from the registry), and run there a Vitest suite (ESM) and a Jest suite (CommonJS, STACK.md's babel-jest recipe)
 * from test/consumer/. Needs the registry and a built dist/ (`npm test` builds it first). Skip it with
 * SKIP_CONSUMER_TESTS=1 for quick local runs; CI runs it.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from './support/built.js';

const SKIP = process.env.SKIP_CONSUMER_TESTS === '1';
const run = promisify(execFile);
const INSTALL_MS = 300_000;
const SUITE_MS = 120_000;

// The versions a consumer on Node 20 would pick (STACK.md).
const DEV_DEPENDENCIES = ['msw@~2.15.0', 'vitest@~4.1.12', 'jest@^30', 'babel-jest@^30', '@babel/core@^7', '@babel/plugin-transform-modules-commonjs@^7', 'axios@^1'];

let dir = '';

async function sh(cmd: string, args: string[], cwd: string, timeout: number) {
  try {
    return await run(cmd, args, { cwd, timeout, maxBuffer: 32 * 1024 * 1024, env: { ...process.env, NODE_OPTIONS: '', CI: '1', NO_COLOR: '1', FORCE_COLOR: '0', npm_config_update_notifier: 'false' } });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`.slice(0, 8000));
  }
}

describe.skipIf(SKIP)('consumer project (packed tarball)', () => {
  beforeAll(async () => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'aws-consumer-'));
    // --ignore-scripts: dist/ is already built; `prepare` would rebuild it under the feet of other test files.
    await sh('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], ROOT, 60_000);
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, version: '0.0.0' }));
    cpSync(join(ROOT, 'test/consumer'), dir, { recursive: true });
    cpSync(join(dir, 'jest/babel.config.cjs'), join(dir, 'babel.config.cjs'));
    await sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', `./${tarball}`, ...DEV_DEPENDENCIES], dir, INSTALL_MS);
  }, INSTALL_MS + 60_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the Vitest suite (ESM, import) passes', async () => {
    const { stdout } = await sh('npx', ['vitest', 'run', '--config', 'vitest/vitest.config.mjs'], dir, SUITE_MS);
    expect(stdout).toMatch(/Tests\s+6 passed \(6\)/);
  }, SUITE_MS);

  it('the Jest suite (CommonJS, require) passes', async () => {
    const { stderr } = await sh('npx', ['jest', '--config', 'jest/jest.config.cjs', '--rootDir', '.', '--ci'], dir, SUITE_MS);
    expect(stderr).toMatch(/Tests:\s+4 passed, 4 total/);
  }, SUITE_MS);
});
