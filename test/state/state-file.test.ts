import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { main, type CliRun } from '../../src/cli/main.js';
import { tempDir } from '../support/temp.js';

const io = () => ({ stdout: () => {}, stderr: () => {}, env: {} });
const dir = tempDir('aws-state-');
let runs: CliRun[] = [];
afterEach(async () => {
  for (const run of runs) await run.stop();
  runs = [];
});

async function start(args: string[]): Promise<CliRun> {
  const run = (await main(['--port', '0', '-q', ...args], io()))!;
  runs.push(run);
  return run;
}

async function api(run: CliRun, method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(`${run.server.url}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

describe('--fixtures marketplace --state demo.json', () => {
  it('survives a restart with its tasks and balances', async () => {
    const state = join(dir, 'demo.json');
    const first = await start(['--fixtures', 'marketplace', '--state', state, '--clock', 'manual']);
    const key = 'ak_demo_acme_admin';
    const agents = await api(first, 'GET', '/ext/agents?limit=3', key);
    const created = await api(first, 'POST', '/ext/tasks', key, {
      agent_id: agents.json.data[0].id,
      description: 'Summarize the Q3 board deck.',
    });
    expect(created.status).toBe(201);
    first.sandbox.clock.advance('30s');
    const done = await api(first, 'GET', `/ext/tasks/${created.json.id}`, key);
    expect(done.json.status).toBe('completed');
    const pending = await api(first, 'POST', '/ext/tasks', key, {
      agent_id: agents.json.data[1].id,
      description: 'Draft a launch email.',
    });
    const usageBefore = await api(first, 'GET', '/ext/usage', key);
    expect(usageBefore.json.balance_usd).toBeLessThan(50);
    first.sandbox.accounts.update('acc_globex', { balanceUsd: 123.45 });
    await first.stop();

    const second = await start(['--fixtures', 'marketplace', '--state', state, '--clock', 'manual']);
    expect((await api(second, 'GET', `/ext/tasks/${created.json.id}`, key)).json).toEqual(done.json);
    expect((await api(second, 'GET', `/ext/tasks/${pending.json.id}`, key)).json.status).toBe('queued');
    const usageAfter = await api(second, 'GET', '/ext/usage', key);
    expect(usageAfter.json.balance_usd).toBe(usageBefore.json.balance_usd);
    expect(usageAfter.json.tasks).toEqual(usageBefore.json.tasks);
    expect(second.sandbox.accounts.get('acc_globex')!.balance_usd).toBe(123.45);
    expect(second.sandbox.accounts.get('acc_acme')!.held_usd).toBeGreaterThan(0);
    // The queued task still moves on after the restart.
    second.sandbox.clock.advance('30s');
    expect((await api(second, 'GET', `/ext/tasks/${pending.json.id}`, key)).json.status).toBe('completed');
  });

  it('starts from the fixtures when the file does not exist yet, and writes it at exit', async () => {
    const state = join(dir, 'fresh.json');
    const run = await start(['--fixtures', 'empty', '--state', state]);
    await run.stop();
    expect(JSON.parse(readFileSync(state, 'utf8')).accounts.map((a: { id: string }) => a.id)).toEqual(['acc_empty']);
  });
});

describe('a corrupt or incompatible --state file', () => {
  const cases: [string, string, RegExp][] = [
    ['not JSON', '{"format":"agent-work-sandbox/state", "vers', /is not valid JSON/],
    ['empty', '', /is not valid JSON/],
    ['not a snapshot', '{"hello":"world"}', /"format" must be "agent-work-sandbox\/state"/],
    ['another version', '{"format":"agent-work-sandbox/state","version":2}', /Unsupported state snapshot version 2/],
    ['a snapshot with a broken account', 'BROKEN_ACCOUNT', /"accounts\.0\.plan"/],
  ];
  it.each(cases)(
    '(%s) gives a clear error naming the file, and the file is not overwritten',
    async (_label, content, message) => {
      const path = join(dir, `bad-${_label.replace(/\W+/g, '-')}.json`);
      let text = content;
      if (content === 'BROKEN_ACCOUNT') {
        const ok = await start(['--state', join(dir, 'template.json')]);
        await ok.stop();
        const snap = JSON.parse(readFileSync(join(dir, 'template.json'), 'utf8'));
        snap.accounts[0].plan = 'gold';
        text = JSON.stringify(snap);
      }
      writeFileSync(path, text);
      const error = await main(['--port', '0', '--state', path], io()).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error).toBeInstanceOf(Error);
      expect(error!.message).toContain(path);
      expect(error!.message).toMatch(message);
      expect(error!.message).toMatch(/left untouched/);
      expect(readFileSync(path, 'utf8')).toBe(text);
    },
  );
});

it('the executable exits non-zero at start on a corrupt state file (dist/cli.js, built by npx tsup)', () => {
  const path = join(dir, 'corrupt-for-bin.json');
  writeFileSync(path, 'not json');
  const child = spawnSync(
    process.execPath,
    [join(import.meta.dirname, '..', '..', 'dist', 'cli.js'), '--port', '0', '--state', path],
    { encoding: 'utf8', timeout: 10_000 },
  );
  expect(child.status).toBe(1);
  expect(child.stderr).toContain(`The state file ${path} is not valid JSON`);
  expect(readFileSync(path, 'utf8')).toBe('not json');
});
