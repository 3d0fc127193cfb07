/** The CLI: `main(argv, io)` in-process where it can be, `node dist/cli.js` as a child for exit codes and signals. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { main, type CliRun } from '../../src/cli/main.js';
import { SCOPES } from '../../src/model/scopes.js';
import { version } from '../../package.json';
import { expectRateHeaders } from '../support/assert.js';
import { CLI, ensureBuilt } from '../support/built.js';
import { tempDir } from '../support/temp.js';

beforeAll(ensureBuilt, 120_000);

const running: CliRun[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()));
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** Runs `main` with captured output. */
async function run(argv: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const result = await main(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env });
  if (result) running.push(result);
  // Getters: the request log keeps writing after main() resolves.
  return {
    result,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
  };
}

/** Starts `node dist/cli.js`; `waitFor` resolves with stdout once it matches; `exited` with the exit. */
function spawnCli(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>(
    (resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  const waitFor = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => (pattern.test(stdout) ? resolve(stdout) : undefined);
      child.stdout.on('data', check);
      child.on('close', () => reject(new Error(`exited before ${pattern}: ${stderr}`)));
      check();
    });
  return { child, exited, waitFor };
}

function occupiedPort(): Promise<{ port: number; server: Server }> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () =>
      resolve({ port: (server.address() as { port: number }).port, server }),
    );
  });
}

/** The banner's key lines: label, key, account. */
function bannerKeys(banner: string) {
  return [...banner.matchAll(/^\s+(\S+)\s+(ak_[A-Za-z0-9_-]+)\s+(acc_\w+)\s*$/gm)].map(([, label, key, account]) => ({
    label: label!,
    key: key!,
    account: account!,
  }));
}

describe('the banner', () => {
  it('lists the base URL, each fixture account with plan and balance, and ready keys that work as listed', async () => {
    const { stdout, result } = await run(['--port', '0']);
    const base = `${result!.server.url}/api/v1`;
    expect(stdout).toContain(`Base URL     ${base}`);
    for (const [id, plan, balance] of [
      ['acc_demo', 'Pro', '50.00'],
      ['acc_free', 'Free', '0.00'],
      ['acc_starter', 'Starter', '10.00'],
      ['acc_enterprise', 'Enterprise', '200.00'],
    ]) {
      expect(stdout).toMatch(new RegExp(`^\\s+${id}\\s+${plan}\\s+\\$\\s*${balance!.replace('.', '\\.')}\\b`, 'm'));
    }
    const keys = bannerKeys(stdout);
    for (const scope of SCOPES)
      expect(
        keys.map((k) => k.label),
        scope,
      ).toContain(scope);
    for (const { label, key } of keys) {
      const agents = await fetch(`${base}/ext/agents`, { headers: { Authorization: `Bearer ${key}` } });
      const usage = await fetch(`${base}/ext/usage`, { headers: { Authorization: `Bearer ${key}` } });
      expect(agents.status, `${label} on /ext/agents`).toBe(label === 'admin' || label === 'read:agents' ? 200 : 403);
      expect(usage.status, `${label} on /ext/usage`).toBe(label === 'admin' || label === 'read:usage' ? 200 : 403);
    }
  });

  it('a key from the banner lists agents with the three rate-limit headers', async () => {
    const { stdout, result } = await run(['--port', '0']);
    const admin = bannerKeys(stdout).find((k) => k.label === 'admin' && k.account === 'acc_demo')!;
    const res = await fetch(`${result!.server.url}/api/v1/ext/agents`, {
      headers: { Authorization: `Bearer ${admin.key}` },
    });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(JSON.parse(text).data.length).toBeGreaterThan(0);
    expectRateHeaders(
      { status: res.status, headers: res.headers, text, json: undefined },
      { limit: 300, remaining: 299 },
    );
  });

  it('--quiet prints only the base URL', async () => {
    const { stdout, result } = await run(['--port', '0', '--quiet']);
    expect(stdout).toBe(`${result!.server.url}/api/v1\n`);
    expect(result!.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});

describe('options', () => {
  it('--help prints the usage and the options with their environment fallbacks', async () => {
    const { stdout, result } = await run(['--help']);
    expect(result).toBeUndefined();
    expect(stdout).toMatch(/^Usage: agent-work-sandbox/);
    for (const text of ['--port', '--host', '--seed', '--quiet', '--help', '--version', 'AGENT_WORK_SANDBOX_PORT'])
      expect(stdout).toContain(text);
  });

  it('--version prints the package version', async () => {
    expect((await run(['--version'])).stdout).toBe(`${version}\n`);
  });

  it('falls back to AGENT_WORK_SANDBOX_PORT and AGENT_WORK_SANDBOX_SEED; flags win over the environment', async () => {
    const { port, server } = await occupiedPort();
    server.close();
    await new Promise((r) => server.once('close', r));
    const byEnv = await run(['--quiet'], { AGENT_WORK_SANDBOX_PORT: String(port), AGENT_WORK_SANDBOX_SEED: '5' });
    expect(byEnv.result!.server.port).toBe(port);
    expect(byEnv.result!.sandbox.seed).toBe(5);
    const byFlag = await run(['--quiet', '--port', '0', '--seed', '6'], {
      AGENT_WORK_SANDBOX_PORT: String(port),
      AGENT_WORK_SANDBOX_SEED: '5',
    });
    expect(byFlag.result!.server.port).not.toBe(port);
    expect(byFlag.result!.sandbox.seed).toBe(6);
    expect(byFlag.result!.sandbox.keys.list()[0]!.key).not.toBe(byEnv.result!.sandbox.keys.list()[0]!.key);
  });

  it('--anonymous-rpm sets the bucket of requests without a valid key', async () => {
    const { result } = await run(['--port', '0', '--quiet', '--anonymous-rpm', '5']);
    const res = await fetch(`${result!.server.url}/api/v1/ext/agents`);
    expect(res.status).toBe(401);
    expect([res.headers.get('x-ratelimit-limit'), res.headers.get('x-ratelimit-remaining')]).toEqual(['5', '4']);
  });

  it.each([
    ['--bogus'],
    ['--port', 'abc'],
    ['--port', '70000'],
    ['--seed', 'x'],
    ['--clock', 'slow'],
    ['serve', 'now'],
    ['--scenario', 'nope'],
  ])('rejects a bad argument (%s) with a one-line usage error', async (...argv) => {
    const error = await run(argv).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe('UsageError');
    expect((error as Error).message).not.toContain('\n');
  });

  it('--port in use → a one-line message naming the port', async () => {
    const { port, server } = await occupiedPort();
    try {
      const error = (await run(['--port', String(port)]).catch((e: Error) => e)) as Error;
      expect(error.message).toMatch(new RegExp(`^Port ${port} .*already in use`));
      expect(error.message).not.toContain('\n');
    } finally {
      server.close();
    }
  });
});

describe('the executable', () => {
  it('exits 2 on a bad flag with a one-line message and no stack', async () => {
    const { code, stdout, stderr } = await spawnCli(['--bogus']).exited;
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const lines = stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^agent-work-sandbox: Unknown option --bogus\./);
    expect(lines.length).toBeLessThanOrEqual(2);
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it('exits non-zero with a one-line EADDRINUSE message and no stack when the port is taken', async () => {
    const { port, server } = await occupiedPort();
    try {
      const { code, stderr } = await spawnCli(['--port', String(port)]).exited;
      expect(code).not.toBe(0);
      expect(stderr.split('\n')[0]).toMatch(new RegExp(`^agent-work-sandbox: Port ${port} .*already in use`));
      expect(stderr).not.toMatch(/^\s+at /m);
    } finally {
      server.close();
    }
  });

  it.each([
    ['SIGTERM', 'the banner'],
    ['SIGINT', '--quiet'],
  ] as const)('serves, and closes gracefully on %s with exit code 0, saving --state (%s)', async (signal, output) => {
    const state = join(tempDir('aws-cli-'), 'state.json');
    const cli = spawnCli(['--port', '0', '--state', state, ...(output === '--quiet' ? ['--quiet'] : [])]);
    const printed = await cli.waitFor(output === '--quiet' ? /\n/ : /curl .*\n/);
    const base = output === '--quiet' ? printed.trim() : /Base URL\s+(\S+)/.exec(printed)![1]!;
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    const admin = bannerKeys(printed)[0];
    const res = await fetch(`${base}/ext/agents`, { headers: admin ? { Authorization: `Bearer ${admin.key}` } : {} });
    expect(res.status).toBe(admin ? 200 : 401);
    expect(res.headers.get('x-ratelimit-limit')).toBe(admin ? '300' : '60');
    cli.child.kill(signal);
    const { code, signal: killedBy, stderr } = await cli.exited;
    expect({ code, killedBy, stderr }).toEqual({
      code: 0,
      killedBy: null,
      stderr: `agent-work-sandbox: state saved to ${state}\n`,
    });
    expect(JSON.parse(readFileSync(state, 'utf8')).format).toBe('agent-work-sandbox/state');
  });
});

describe('the request log, PORT, exit codes', () => {
  it('PORT is honoured when no flag and no AGENT_WORK_SANDBOX_PORT is given; the flag wins', async () => {
    const { port, server } = await occupiedPort();
    server.close();
    await new Promise((r) => server.once('close', r));
    const byPort = await run(['--quiet'], { PORT: String(port) });
    expect(byPort.result!.server.port).toBe(port);
    await byPort.result!.stop();
    const byFlag = await run(['--quiet', '--port', '0'], { PORT: String(port) });
    expect(byFlag.result!.server.port).not.toBe(port);
  });

  it('logs each request on stdout: method, path, status, ms, scenario, key masked; --log json; --quiet silences it', async () => {
    const text = await run(['--port', '0']);
    const key = text.result!.sandbox.keys.list('acc_demo')[0]!.key;
    const base = `${text.result!.server.url}/api/v1`;
    await (
      await fetch(`${base}/ext/agents?limit=1`, {
        headers: { Authorization: `Bearer ${key}`, 'X-Sandbox-Scenario': 'server-error' },
      })
    ).text();
    await expect
      .poll(() => text.stdout)
      .toMatch(/\d\d:\d\d:\d\d GET \/api\/v1\/ext\/agents\?limit=1 500 [\d.]+ ms {2}ak_\w{4}… {2}\[server-error\]\n$/);
    expect(text.stdout.trimEnd().split('\n').at(-1)).not.toContain(key); // the banner shows keys; the log never

    const json = await run(['--port', '0', '--log', 'json']);
    await (
      await fetch(`${json.result!.server.url}/api/v1/ext/usage`, {
        headers: { Authorization: 'Bearer ak_magic_rate_limited' },
      })
    ).text();
    await expect.poll(() => json.stdout).toMatch(/\}\n$/);
    const line = JSON.parse(json.stdout.trimEnd().split('\n').at(-1)!);
    expect(line).toMatchObject({
      method: 'GET',
      path: '/api/v1/ext/usage',
      status: 429,
      scenario: 'rate-limited',
      key: 'ak_magi…',
    });
    expect(typeof line.ms).toBe('number');

    const quiet = await run(['--port', '0', '--quiet']);
    await (await fetch(`${quiet.result!.server.url}/api/v1/ext/agents`)).text();
    await new Promise((r) => setImmediate(r));
    expect(quiet.stdout).toBe(`${quiet.result!.server.url}/api/v1\n`);
  });

  it('the request log tells the truth: a reset connection is 0 network_error, and control paths keep /__sandbox', async () => {
    const text = await run(['--port', '0']);
    const key = text.result!.sandbox.keys.list('acc_demo')[0]!.key;
    const origin = text.result!.server.url;
    const reset = await fetch(`${origin}/api/v1/ext/agents`, {
      headers: { Authorization: `Bearer ${key}`, 'X-Sandbox-Scenario': 'network-error' },
    }).catch((e: Error) => e);
    expect(reset).toBeInstanceOf(Error);
    await expect.poll(() => text.stdout).toMatch(/ GET \/api\/v1\/ext\/agents 0 network_error [\d.]+ ms/);
    await (await fetch(`${origin}/__sandbox/accounts`)).text();
    await expect.poll(() => text.stdout).toMatch(/ GET \/__sandbox\/accounts 200 [\d.]+ ms\n$/);
    expect(text.stdout).not.toMatch(/ GET \/accounts /);

    const json = await run(['--port', '0', '--log', 'json']);
    await fetch(`${json.result!.server.url}/api/v1/ext/usage`, {
      headers: { Authorization: `Bearer ${key}`, 'X-Sandbox-Scenario': 'network-error' },
    }).catch(() => undefined);
    await expect.poll(() => json.stdout).toMatch(/\}\n$/);
    expect(JSON.parse(json.stdout.trimEnd().split('\n').at(-1)!)).toMatchObject({ status: 0, error: 'network_error' });
  });

  it('rejects --log with another format', async () => {
    expect(((await run(['--log', 'xml']).catch((e: Error) => e)) as Error).message).toMatch(
      /--log must be text or json/,
    );
  });

  it('a port in use exits 1 (not the usage code) with a message naming the port, without "--help"', async () => {
    const { port, server } = await occupiedPort();
    try {
      const { code, stderr } = await spawnCli(['--port', String(port)]).exited;
      expect(code).toBe(1);
      expect(stderr).toBe(
        `agent-work-sandbox: Port ${port} on 127.0.0.1 is already in use. Choose another with --port or PORT (0 picks a free one).\n`,
      );
    } finally {
      server.close();
    }
  });
});
