/**
 * The CLI under Bun and Deno (the npm registry's `bun` and `deno` packages carry their binaries): it serves, and on
 * SIGTERM and SIGINT saves `--state` and exits 0. Installs both into a temporary directory (about 20 s), so it runs
 * only with RUNTIME_TESTS=1 (CI sets it).
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt } from '../support/built.js';

const RUN = process.env.RUNTIME_TESTS === '1';
let dir = '';

beforeAll(() => {
  if (!RUN) return;
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'aws-runtimes-'));
  // Their postinstall scripts put the platform binary in place: approved here, for this throwaway project only.
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'runtimes', private: true, allowScripts: { bun: true, deno: true } }),
  );
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', 'bun@^1', 'deno@^2'], {
    cwd: dir,
    stdio: 'ignore',
    timeout: 300_000,
  });
}, 320_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const RUNTIMES: Array<[string, () => { bin: string; args: string[] }]> = [
  ['Bun', () => ({ bin: join(dir, 'node_modules/.bin/bun'), args: [CLI] })],
  ['Deno', () => ({ bin: join(dir, 'node_modules/.bin/deno'), args: ['run', '-A', CLI] })],
];

describe.skipIf(!RUN).each(RUNTIMES)('the CLI under %s', (_name, command) => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'serves, and on %s saves --state and exits 0',
    async (signal) => {
      const state = join(dir, `state-${_name}-${signal}.json`);
      const { bin, args } = command();
      const child = spawn(bin, [...args, '--port', '0', '--quiet', '--state', state], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const base = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d) => {
          stdout += d;
          if (stdout.includes('\n')) resolve(stdout.trim());
        });
        child.on('exit', (code) => reject(new Error(`exited ${code} before serving: ${stderr}`)));
      });
      const res = await fetch(`${base}/ext/agents`);
      expect(res.status).toBe(401);
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill(signal);
      expect(await exited).toBe(0);
      expect(stderr).toBe(`agent-work-sandbox: state saved to ${state}\n`);
      expect(existsSync(state) && JSON.parse(readFileSync(state, 'utf8')).format).toBe('agent-work-sandbox/state');
    },
    60_000,
  );
});
