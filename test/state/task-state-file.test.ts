import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main, type CliRun } from '../../src/cli/main.js';
import { StateFileError, saveStateFile } from '../../src/server/state-file.js';
import { createSandbox } from '../../src/index.js';

let dir: string;
let runs: CliRun[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'aws-state-'));
});
afterEach(async () => {
  await Promise.all(runs.map((r) => r.stop()));
  runs = [];
  rmSync(dir, { recursive: true, force: true });
});

async function start(stateFile: string): Promise<{ run: CliRun; api: string; key: string }> {
  const out: string[] = [];
  const run = (await main(['--port', '0', '--clock', 'manual', '--quiet', '--state', stateFile], {
    stdout: (t) => out.push(t),
    stderr: (t) => out.push(t),
    env: {},
  }))!;
  runs.push(run);
  const key = run.sandbox.keys.list('acc_demo').find((k) => k.label === 'admin')!.key;
  return { run, api: out.join('').trim(), key };
}

const call = (api: string, key: string, method: string, path: string, body?: unknown) =>
  fetch(`${api}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('--state FILE: "load state from FILE at start, save it there at exit"', () => {
  it('with no file yet the CLI starts from the fixtures; stop() saves the state; the next start loads it (tasks, holds, periods)', async () => {
    const file = join(dir, 'state.json');
    const first = await start(file);
    const agents = await (await call(first.api, first.key, 'GET', '/ext/agents?limit=2')).json();
    const queued = await (
      await call(first.api, first.key, 'POST', '/ext/tasks', {
        agent_id: agents.data[0].id,
        description: 'Kept across restarts.',
      })
    ).json();
    const done = await (
      await call(first.api, first.key, 'POST', '/ext/tasks', {
        agent_id: agents.data[1].id,
        description: 'Finished before the restart.',
      })
    ).json();
    first.run.sandbox.tasks.complete(done.id);
    const usage = await (await call(first.api, first.key, 'GET', '/ext/usage')).text();
    const account = first.run.sandbox.accounts.get('acc_demo');
    expect(account!.held_usd).toBeGreaterThan(0);
    await first.run.stop();

    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved.format).toBe('agent-work-sandbox/state');
    expect(saved.tasks.map((t: { id: string }) => t.id)).toEqual([queued.id, done.id]);
    expect(readdirSync(dir)).toEqual(['state.json']);

    const second = await start(file);
    expect(await (await call(second.api, second.key, 'GET', `/ext/tasks/${queued.id}`)).json()).toEqual(queued);
    expect((await (await call(second.api, second.key, 'GET', `/ext/tasks/${done.id}`)).json()).status).toBe(
      'completed',
    );
    expect(second.run.sandbox.accounts.get('acc_demo')).toEqual(account);
    // The usage read after the restart counts one more request than the one before it; the rest is the same.
    const again = JSON.parse(await (await call(second.api, second.key, 'GET', '/ext/usage')).text());
    const before = JSON.parse(usage);
    expect({ ...again, requests: undefined }).toEqual({ ...before, requests: undefined });
    expect(again.requests.total).toBe(before.requests.total + 3);
  });

  it('the file is written to a temporary file and renamed: an existing file is replaced whole, no temporary file is left', () => {
    const file = join(dir, 'state.json');
    const sandbox = createSandbox({ clock: 'manual' });
    saveStateFile(file, sandbox.snapshot());
    const firstText = readFileSync(file, 'utf8');
    sandbox.accounts.update('acc_demo', { balanceUsd: 1.5 });
    saveStateFile(file, sandbox.snapshot());
    const secondText = readFileSync(file, 'utf8');
    expect(secondText).not.toBe(firstText);
    expect(JSON.parse(secondText).accounts.find((a: { id: string }) => a.id === 'acc_demo').balanceNano).toBe(
      1_500_000_000,
    );
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('a write that fails leaves the previous file intact and no temporary file behind', () => {
    const target = join(dir, 'taken');
    mkdirSync(target);
    writeFileSync(join(target, 'keep.txt'), 'keep');
    expect(() => saveStateFile(target, createSandbox({ clock: 'manual' }).snapshot())).toThrow(StateFileError);
    expect(readdirSync(dir)).toEqual(['taken']);
    expect(readFileSync(join(target, 'keep.txt'), 'utf8')).toBe('keep');
  });

  it('a state file that is not JSON stops the start with a clear error, and is left untouched', async () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{ not json');
    await expect(
      main(['--port', '0', '--quiet', '--state', file], { stdout: () => {}, stderr: () => {}, env: {} }),
    ).rejects.toThrow(/not valid JSON/);
    expect(readFileSync(file, 'utf8')).toBe('{ not json');
  });

  it('a JSON file that is not a snapshot stops the start too', async () => {
    const file = join(dir, 'other.json');
    writeFileSync(file, '{"hello":"world"}');
    await expect(
      main(['--port', '0', '--quiet', '--state', file], { stdout: () => {}, stderr: () => {}, env: {} }),
    ).rejects.toThrow(/snapshot/);
    expect(readFileSync(file, 'utf8')).toBe('{"hello":"world"}');
  });
});
