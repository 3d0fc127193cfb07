/**
 * `--state` beside flags it replaces, and a state reloaded under another clock mode: one line says which wins, the
 * banner shows the state's own seed, and a manual state on a real clock resumes at its saved time (no jump, no
 * monthly credits for the months in between).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main, type CliRun } from '../../src/cli/main.js';
import { tempDir } from '../support/temp.js';

const dir = tempDir('aws-state-flags-');
let runs: CliRun[] = [];
afterEach(async () => {
  for (const run of runs) await run.stop();
  runs = [];
});

async function start(args: string[]) {
  const out = { stdout: '', stderr: '' };
  const run = (await main(['--port', '0', ...args], {
    stdout: (t) => void (out.stdout += t),
    stderr: (t) => void (out.stderr += t),
    env: {},
  }))!;
  runs.push(run);
  return { run, out };
}

describe('--state beside --seed and --fixtures', () => {
  it('says in one line that the saved state wins, and the banner shows the state’s seed', async () => {
    const state = join(dir, 'seeded.json');
    const first = await start(['--seed', '5', '--state', state, '--clock', 'manual', '-q']);
    await first.run.stop();
    runs = [];

    const second = await start(['--seed', '9', '--fixtures', 'default', '--state', state, '--clock', 'manual']);
    expect(second.out.stderr).toBe(
      `agent-work-sandbox: ${state} holds a saved state (seed 5): it wins over --seed and --fixtures.\n`,
    );
    expect(second.out.stdout).toMatch(/Seed 5 · clock manual/);
    expect(second.run.sandbox.seed).toBe(5);
  });

  it('says nothing when no flag is replaced, or when the state file does not exist yet', async () => {
    const state = join(dir, 'quiet.json');
    const first = await start(['--seed', '3', '--state', state, '-q']);
    expect(first.out.stderr).toBe('');
    await first.run.stop();
    runs = [];
    const second = await start(['--state', state, '-q']);
    expect(second.out.stderr).toBe('');
    expect(second.run.sandbox.seed).toBe(3);
  });
});

describe('a state reloaded under another clock mode', () => {
  it('a state saved on the manual clock resumes at its saved time on the real clock, with no credit windfall', async () => {
    const state = join(dir, 'manual.json');
    const first = await start(['--state', state, '--clock', 'manual', '-q']);
    const savedAt = first.run.sandbox.clock.now();
    const balances = first.run.sandbox.accounts.list().map((a) => [a.id, a.balance_usd]);
    await first.run.stop();
    runs = [];

    const second = await start(['--state', state, '--clock', 'real', '-q']);
    const now = second.run.sandbox.clock.now();
    expect(now).toBeGreaterThanOrEqual(savedAt);
    expect(now - savedAt).toBeLessThan(60_000);
    expect(second.run.sandbox.accounts.list().map((a) => [a.id, a.balance_usd])).toEqual(balances);
  });

  it('a state saved on the real clock and reloaded on the real clock keeps wall time', async () => {
    const state = join(dir, 'real.json');
    const first = await start(['--state', state, '-q']);
    await first.run.stop();
    runs = [];
    const second = await start(['--state', state, '-q']);
    expect(Math.abs(second.run.sandbox.clock.now() - Date.now())).toBeLessThan(60_000);
  });
});
