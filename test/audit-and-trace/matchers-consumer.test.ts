/**
 * The audit matcher in a consumer's project: the packed tarball installed in a throwaway project beside Vitest and
 * Jest (from the registry), running test/consumer-audit/ in both runners. Skipped with SKIP_CONSUMER_TESTS=1.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from '../support/built.js';

const PACKAGES = ['msw@~2.15.0', 'vitest@~4.1.12', 'jest@^30', '@babel/plugin-transform-modules-commonjs@^7'];
const env = {
  ...process.env,
  NODE_OPTIONS: '',
  CI: '1',
  NO_COLOR: '1',
  FORCE_COLOR: '0',
  npm_config_update_notifier: 'false',
};
let project = '';

/** Runs a command in the project: its stdout and stderr together (Vitest reports on one, Jest on the other). */
function inProject(cmd: string, args: string[], timeout: number): string {
  const run = spawnSync(cmd, args, { cwd: project, env, timeout, encoding: 'utf8', maxBuffer: 32 << 20 });
  const out = `${run.stdout}\n${run.stderr}`;
  if (run.status !== 0)
    throw new Error(`${cmd} ${args.join(' ')} failed (${run.status ?? run.signal}):\n${out.slice(-6000)}`);
  return out;
}

describe.skipIf(process.env.SKIP_CONSUMER_TESTS === '1')('the audit matcher in a consumer project', () => {
  beforeAll(() => {
    ensureBuilt();
    project = mkdtempSync(join(tmpdir(), 'aws-audit-consumer-'));
    execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', project], {
      cwd: ROOT,
      env,
      stdio: 'ignore',
      timeout: 60_000,
    });
    const tarball = readdirSync(project).find((f) => f.endsWith('.tgz'))!;
    writeFileSync(join(project, 'package.json'), '{ "name": "audit-consumer", "private": true, "version": "0.0.0" }');
    cpSync(join(ROOT, 'test/package/consumer-audit'), project, { recursive: true });
    inProject(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', `./${tarball}`, ...PACKAGES],
      300_000,
    );
  }, 400_000);

  afterAll(() => {
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('passes and fails as it should in Vitest (ESM, import)', () => {
    expect(inProject('npx', ['vitest', 'run', '--config', 'vitest.config.mjs'], 120_000)).toMatch(
      /Tests\s+2 passed \(2\)/,
    );
  }, 130_000);

  it('passes and fails as it should in Jest (CommonJS, require)', () => {
    expect(inProject('npx', ['jest', '--config', 'jest.config.cjs', '--rootDir', '.', '--ci'], 120_000)).toMatch(
      /Tests:\s+2 passed, 2 total/,
    );
  }, 130_000);
});
