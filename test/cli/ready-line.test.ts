/** The machine-readable start: with `--log json`, the first line on stdout is the ready line, nothing before it. */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { main, type CliRun } from '../../src/cli/main.js';
import { CLI, ensureBuilt } from '../support/built.js';

beforeAll(ensureBuilt, 120_000);

const running: CliRun[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()));
});

it('with --log json the first line on stdout is one JSON object: base URL, port and the ready keys per account', async () => {
  let stdout = '';
  let stderr = '';
  const run = await main(['--port', '0', '--log', 'json', '--clock', 'manual'], {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    env: {},
  });
  running.push(run!);
  const [first, ...rest] = stdout.split('\n');
  expect(rest).toEqual(['']);
  const ready = JSON.parse(first!);
  const port = run!.server.port;
  expect(ready).toMatchObject({
    event: 'ready',
    port,
    base_url: `http://127.0.0.1:${port}/api/v1`,
    control_url: `http://127.0.0.1:${port}/__sandbox`,
    control_openapi_url: `http://127.0.0.1:${port}/__sandbox/control/openapi.json`,
    control_token: null,
    clock: 'manual',
  });
  const demo = ready.accounts.find((a: { id: string }) => a.id === 'acc_demo');
  const admin = demo.keys.find((k: { label: string }) => k.label === 'admin');
  expect(admin.key).toBe(run!.sandbox.keys.list('acc_demo').find((k) => k.label === 'admin')!.key);
  expect(admin.scopes).toEqual(['admin']);
  // The key works: the line is the whole start.
  const res = await fetch(`${ready.base_url}/ext/usage`, { headers: { Authorization: `Bearer ${admin.key}` } });
  expect(res.status).toBe(200);
  // The human banner goes to stderr; the request log follows the ready line, one JSON object a line.
  expect(stderr).toContain('Base URL');
  await expect.poll(() => stdout.split('\n').length).toBe(3);
  expect(JSON.parse(stdout.split('\n')[1]!)).toMatchObject({ method: 'GET', path: '/api/v1/ext/usage', status: 200 });
});

it('a process fixture reads the ready line of node dist/cli.js --port 0 --log json, and nothing comes before it', async () => {
  const child = spawn(process.execPath, [CLI, '--port', '0', '--log', 'json'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const lines = createInterface({ input: child.stdout });
    const first = await new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      child.once('exit', (code) => reject(new Error(`exited ${code} before the ready line`)));
    });
    const ready = JSON.parse(first);
    expect(ready.event).toBe('ready');
    expect(ready.port).toBeGreaterThan(0);
    const res = await fetch(`${ready.control_url}/clock`);
    expect(res.status).toBe(200);
  } finally {
    child.kill('SIGTERM');
  }
});
