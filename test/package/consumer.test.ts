/**
 * Consumer tests: `npm pack`, install the tarball into a fresh temporary project beside msw, vitest, jest and axios
 * (from the registry), and run there a Vitest suite (ESM) and a Jest suite (CommonJS, the package's Jest preset and
 * nothing else) from test/consumer/. Needs the registry and a built dist/ (`npm test` builds it first). Skip it with
 * SKIP_CONSUMER_TESTS=1 for quick local runs; CI runs it. `CONSUMER_MSW=3` installs msw 3 instead of msw 2 (Node ≥ 22.12).
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../support/built.js';

const SKIP = process.env.SKIP_CONSUMER_TESTS === '1';
const run = promisify(execFile);
const INSTALL_MS = 300_000;
const SUITE_MS = 120_000;

// The versions a consumer would pick (STACK.md), and the Jest preset's optional peer (Jest brings @babel/core).
const MSW = process.env.CONSUMER_MSW === '3' ? 'msw@^3' : 'msw@~2.15.0';
function nodeAtLeast(major: number, minor: number): boolean {
  const [a = 0, b = 0] = process.versions.node.split('.').map(Number);
  return a > major || (a === major && b >= minor);
}
const DEV_DEPENDENCIES = [MSW, 'vitest@~4.1.12', 'jest@^30', 'axios@^1', '@babel/plugin-transform-modules-commonjs@^7'];

let dir = '';
let installWarnings = '';

async function sh(cmd: string, args: string[], cwd: string, timeout: number, nodeOptions = '') {
  try {
    return await run(cmd, args, {
      cwd,
      timeout,
      maxBuffer: 32 * 1024 * 1024,
      env: {
        ...process.env,
        NODE_OPTIONS: nodeOptions,
        CI: '1',
        NO_COLOR: '1',
        FORCE_COLOR: '0',
        npm_config_update_notifier: 'false',
      },
    });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${cmd} ${args.join(' ')} failed in ${cwd}:\n${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`.slice(0, 8000),
      { cause: error },
    );
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
    cpSync(join(ROOT, 'test/package/consumer'), dir, { recursive: true });
    const install = await sh(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--loglevel=error',
        `./${tarball}`,
        ...DEV_DEPENDENCIES,
      ],
      dir,
      INSTALL_MS,
    );
    installWarnings = install.stderr;
  }, INSTALL_MS + 60_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it(
    'the Vitest suite (ESM, import) passes',
    async () => {
      const { stdout } = await sh('npx', ['vitest', 'run', '--config', 'vitest/vitest.config.mjs'], dir, SUITE_MS);
      expect(stdout).toMatch(/Tests\s+8 passed \(8\)/);
    },
    SUITE_MS,
  );

  // msw 3 is ESM-only: under Jest it runs in Jest's native ESM mode (--experimental-vm-modules), on Node 24 or later,
  // where the preset leaves ES modules alone. Elsewhere the preset stops Jest with one line that says what to do.
  const MSW3 = MSW.startsWith('msw@^3');
  const JEST_RUNS = !MSW3 || nodeAtLeast(24, 0);
  const jest = (nodeOptions: string) =>
    sh('npx', ['jest', '--config', 'jest/jest.config.cjs', '--rootDir', '.', '--ci'], dir, SUITE_MS, nodeOptions);

  it.runIf(JEST_RUNS)(
    `the Jest suite (CommonJS, require) passes${MSW3 ? ' (Node 24, --experimental-vm-modules)' : ''}`,
    async () => {
      const { stderr } = await jest(MSW3 ? '--experimental-vm-modules' : '');
      expect(stderr).toMatch(/Tests:\s+7 passed, 7 total/);
      expect(stderr).toContain(`an unmocked request fails the test (msw ${MSW3 ? '3.' : '2.'}`);
    },
    SUITE_MS,
  );

  it.runIf(!JEST_RUNS)(
    'with msw 3 where Jest cannot load it, the preset stops Jest with one line saying what to do',
    async () => {
      const error = (await jest('--experimental-vm-modules').catch((e: Error) => e)) as Error;
      expect(error).toBeInstanceOf(Error);
      expect(error.message).toMatch(
        /agent-work-sandbox\/jest-preset: msw 3 is ESM-only and runs under Jest only on Node 24 or later with NODE_OPTIONS=--experimental-vm-modules/,
      );
    },
    SUITE_MS,
  );

  it("installs without an install-script warning about the package (msw's own postinstall is msw's)", () => {
    expect(installWarnings.split('\n').filter((l) => l.includes('agent-work-sandbox'))).toEqual([]);
  });
});
