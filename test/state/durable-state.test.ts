/**
 * Issue 14, item 4: `--state` is durable. kill -9 (a crash, a power cut) loses at most about a second of writes by
 * default, none with `--state-sync always`, and never leaves a half-written file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCli } from '../../src/cli/args.js';
import { cliKey, httpCall, startCli, type CliServer } from '../server/cli-server.js';
import { tempDir } from '../support/temp.js';

const dir = tempDir('aws-durable-');
const started: CliServer[] = [];
afterAll(() => {
  for (const cli of started) cli.proc.kill('SIGKILL');
});

async function start(args: string[]): Promise<CliServer> {
  const cli = await startCli(args);
  started.push(cli);
  return cli;
}

async function crash(cli: CliServer): Promise<void> {
  cli.proc.kill('SIGKILL');
  await cli.exited;
}

const accountsIn = (file: string) =>
  (JSON.parse(readFileSync(file, 'utf8')) as { accounts: { id: string }[] }).accounts.map((a) => a.id);

describe('--state-sync always: every acknowledged write is on the disk before its answer', () => {
  it('keeps every acknowledged write across kill -9', async () => {
    const file = join(dir, 'always.json');
    const first = await start(['--state', file, '--state-sync', 'always', '--clock', 'manual']);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await httpCall(first.origin, 'POST', '/__sandbox/accounts', {
        body: { name: `Crash ${i}`, plan: 'pro' },
      });
      expect(res.status).toBe(201);
      ids.push((res.json as { id: string }).id);
    }
    const key = await cliKey(first.origin, 'acc_demo');
    const agents = (
      await httpCall(first.origin, 'GET', '/api/v1/ext/agents', { headers: { authorization: `Bearer ${key}` } })
    ).json as { data: { id: string }[] };
    const task = await httpCall(first.origin, 'POST', '/api/v1/ext/tasks', {
      headers: { authorization: `Bearer ${key}` },
      body: { agent_id: agents.data[0]!.id, description: 'durable' },
    });
    expect(task.status).toBe(201);
    await crash(first);

    expect(accountsIn(file)).toEqual(expect.arrayContaining(ids));
    const second = await start(['--state', file, '--state-sync', 'always', '--clock', 'manual']);
    const got = await httpCall(second.origin, 'GET', `/api/v1/ext/tasks/${(task.json as { id: string }).id}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(got.status).toBe(200);
    await crash(second);
  });
});

describe('--state-sync by default (1 s): a crash loses at most about a second', () => {
  it('has the write on disk within about a second, without any exit', async () => {
    const file = join(dir, 'default.json');
    const cli = await start(['--state', file, '--clock', 'manual']);
    const res = await httpCall(cli.origin, 'POST', '/__sandbox/accounts', { body: { name: 'Within a second' } });
    const id = (res.json as { id: string }).id;
    const t0 = Date.now();
    // Polls the file (the save happens on the server's own timer); the bound is the guarantee.
    await expect
      .poll(
        () => {
          try {
            return accountsIn(file);
          } catch {
            return [];
          }
        },
        { timeout: 2_500, interval: 50 },
      )
      .toContain(id);
    expect(Date.now() - t0).toBeLessThan(2_500);
    await crash(cli);
    expect(accountsIn(file)).toContain(id);
  });
});

describe('never a half-written file', () => {
  it('leaves a whole snapshot and no temporary file when killed in the middle of a burst of saves', async () => {
    const file = join(dir, 'burst.json');
    const cli = await start(['--state', file, '--state-sync', 'always', '--clock', 'manual']);
    expect((await httpCall(cli.origin, 'POST', '/__sandbox/accounts', { body: { name: 'First' } })).status).toBe(201);
    const burst = Array.from({ length: 40 }, (_, i) =>
      httpCall(cli.origin, 'POST', '/__sandbox/accounts', { body: { name: `Burst ${i}` } }).catch(() => undefined),
    );
    await new Promise((r) => setImmediate(r));
    await crash(cli);
    await Promise.all(burst);
    expect(() => JSON.parse(readFileSync(file, 'utf8'))).not.toThrow();
    const again = await start(['--state', file, '--clock', 'manual']);
    expect((await httpCall(again.origin, 'GET', '/__sandbox/accounts')).status).toBe(200);
    await crash(again);
  });

  it('removes at the next start the temporary file a killed save left behind', () => {
    expect(readdirSync(dir).filter((f) => f.startsWith('burst.json.') && f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('--state-sync values', () => {
  it('reads always, exit and intervals; refuses anything else', () => {
    expect(parseCli([]).stateSync).toBe(1000);
    expect(parseCli(['--state-sync', 'always']).stateSync).toBe('always');
    expect(parseCli(['--state-sync', 'exit']).stateSync).toBe('exit');
    expect(parseCli(['--state-sync', '250ms']).stateSync).toBe(250);
    expect(parseCli(['--state-sync', '5s']).stateSync).toBe(5000);
    for (const bad of ['never', '0', '5ms', '2h'])
      expect(() => parseCli(['--state-sync', bad]), bad).toThrow(/--state-sync must be/);
  });
});
