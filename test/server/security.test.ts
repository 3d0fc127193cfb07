/**
 * Security defaults: loopback unless told, a control token when exposed, keys looked up in constant time and never
 * logged whole, no X-Powered-By, and a control API that other origins cannot reach.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, ERRORS, type Sandbox } from '../../src/index.js';
import { KeyIndex, sameString } from '../../src/model/key-index.js';
import { cliKey, httpCall, ROOT, startCli, type CliServer } from './cli-server.js';

const reachable = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, host, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });

describe('binding', () => {
  it('binds 127.0.0.1 unless told: the library server and the CLI', async () => {
    const sandbox = createSandbox();
    const running = await sandbox.listen({ port: 0 });
    try {
      expect(new URL(running.url).hostname).toBe('127.0.0.1');
      const outside = Object.values(networkInterfaces())
        .flat()
        .find((i) => i && i.family === 'IPv4' && !i.internal);
      if (outside) expect(await reachable(outside.address, running.port)).toBe(false);
    } finally {
      await running.close();
    }
    const cli = await startCli();
    expect(new URL(cli.origin).hostname).toBe('127.0.0.1');
    cli.proc.kill('SIGTERM');
    await cli.exited;
  });

  describe('bound beyond loopback (--host 0.0.0.0)', () => {
    let cli: CliServer;
    let origin: string;
    let token: string;
    beforeAll(async () => {
      cli = await startCli(['--host', '0.0.0.0'], { quiet: false });
      origin = `http://127.0.0.1:${cli.port}`;
      token = /Control token: (\S+)/.exec(cli.stdout())![1]!;
    });
    afterAll(async () => {
      cli.proc.kill('SIGTERM');
      await cli.exited;
    });

    it('the banner warns and prints a generated control token', () => {
      expect(cli.stdout()).toMatch(/WARNING: listening beyond loopback/);
      expect(token.length).toBeGreaterThanOrEqual(20);
    });

    it('the control API requires the token: none or a wrong one is 401 invalid_api_key', async () => {
      const none = await httpCall(origin, 'GET', '/__sandbox/accounts');
      expect(none.status).toBe(401);
      expect(none.json.error.code).toBe('invalid_api_key');
      const wrong = await httpCall(origin, 'POST', '/__sandbox/reset', {
        headers: { 'X-Sandbox-Token': `${token.slice(0, -1)}x` },
      });
      expect(wrong.status).toBe(401);
      const right = await httpCall(origin, 'GET', '/__sandbox/accounts', { headers: { 'X-Sandbox-Token': token } });
      expect(right.status).toBe(200);
    });

    it('a token given with --control-token is the one asked for', async () => {
      const other = await startCli(['--host', '0.0.0.0', '--control-token', 'team-secret-token-123'], { quiet: false });
      try {
        expect(other.stdout()).toContain('team-secret-token-123');
        const o = `http://127.0.0.1:${other.port}`;
        expect((await httpCall(o, 'GET', '/__sandbox/accounts')).status).toBe(401);
        expect(
          (await httpCall(o, 'GET', '/__sandbox/accounts', { headers: { 'X-Sandbox-Token': 'team-secret-token-123' } }))
            .status,
        ).toBe(200);
      } finally {
        other.proc.kill('SIGTERM');
        await other.exited;
      }
    });
  });
});

describe('API keys', () => {
  it('are looked up by a keyed hash and compared in constant time: the index holds no key value as a map key', () => {
    const index = new KeyIndex();
    const key = {
      id: 'key_1',
      key: 'ak_abcdefghijklmnopqrstuvwxyzABCDEF',
      accountId: 'acc',
      scopes: [],
      revoked: false,
      label: 'x',
      createdAt: 0,
    };
    index.set(key.key, key);
    expect(index.get(key.key)).toBe(key);
    for (const guess of [
      'ak_bbcdefghijklmnopqrstuvwxyzABCDEF',
      'ak_abcdefghijklmnopqrstuvwxyzABCDEG',
      'ak_abcdefghijklmnopqrstuvwxyzABCDE',
      `${key.key}F`,
      '',
    ]) {
      expect(index.get(guess)).toBeUndefined();
    }
    const buckets = (index as unknown as { buckets: Map<unknown, unknown> }).buckets;
    for (const k of buckets.keys()) expect(typeof k).toBe('number');
  });

  it('sameString compares every character whatever the first difference', () => {
    expect(sameString('ak_abc', 'ak_abc')).toBe(true);
    expect(sameString('ak_abc', 'ak_abd')).toBe(false);
    expect(sameString('xk_abc', 'ak_abc')).toBe(false);
    expect(sameString('ak_ab', 'ak_abc')).toBe(false);
  });

  it('the core below src/server imports nothing from node: (it runs in a browser)', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const f of readdirSync(dir)) {
        const p = join(dir, f);
        if (statSync(p).isDirectory()) {
          if (!['server', 'cli'].includes(f)) walk(p);
        } else if (p.endsWith('.ts')) files.push(p);
      }
    };
    walk(join(ROOT, 'src'));
    expect(files.length).toBeGreaterThan(20);
    for (const f of files) expect(readFileSync(f, 'utf8'), f).not.toMatch(/from ['"]node:/);
  });

  it('never appear whole in the journal or the control API, even when sent in a path or query', async () => {
    const sandbox: Sandbox = createSandbox({ clock: 'manual' });
    const running = await sandbox.listen({ port: 0 });
    try {
      const keys = sandbox.keys.list().map((k) => k.key);
      const key = keys[0]!;
      const h = { Authorization: `Bearer ${key}` };
      await httpCall(running.url, 'GET', `/api/v1/ext/agents/${key}`, { headers: h });
      await httpCall(running.url, 'GET', `/api/v1/ext/agents?api_key=${key}&limit=${key}`, { headers: h });
      await httpCall(running.url, 'GET', `/api/v1/${key}/x`, { headers: h });
      const revokeUnknown = await httpCall(running.url, 'DELETE', `/__sandbox/keys/${key}x`);
      expect(revokeUnknown.status).toBe(404);
      const journal = JSON.stringify(sandbox.requests);
      const remote = (await httpCall(running.url, 'GET', '/__sandbox/requests')).text;
      expect(sandbox.requests.length).toBe(3);
      for (const k of keys) {
        expect(journal).not.toContain(k);
        expect(remote).not.toContain(k);
        expect(revokeUnknown.text).not.toContain(k);
      }
      expect(journal).toContain(`${key.slice(0, 7)}…`);
    } finally {
      await running.close();
    }
  });

  it('the CLI prints no key in --quiet mode, nor in its errors', async () => {
    const cli = await startCli();
    const key = await cliKey(cli.origin);
    await httpCall(cli.origin, 'GET', `/api/v1/ext/agents/${key}`, { headers: { Authorization: `Bearer ${key}` } });
    cli.proc.kill('SIGTERM');
    await cli.exited;
    expect(cli.stdout() + cli.stderr()).not.toContain('ak_');
  });
});

describe('headers and origins', () => {
  let sandbox: Sandbox;
  let url: string;
  let port: number;
  let close: () => Promise<void>;
  let key: string;
  beforeAll(async () => {
    sandbox = createSandbox({ clock: 'manual' });
    const running = await sandbox.listen({ port: 0 });
    ({ url, port, close } = running);
    key = sandbox.keys.list('acc_demo').find((k) => k.label === 'admin')!.key;
  });
  afterAll(() => close());

  it('no answer carries X-Powered-By', async () => {
    const answers = await Promise.all([
      httpCall(url, 'GET', '/api/v1/ext/agents', { headers: { Authorization: `Bearer ${key}` } }),
      httpCall(url, 'GET', '/api/v1/ext/agents'),
      httpCall(url, 'GET', '/api/v1/nowhere', { headers: { Authorization: `Bearer ${key}` } }),
      httpCall(url, 'GET', '/'),
      httpCall(url, 'GET', '/nowhere'),
      httpCall(url, 'GET', '/__sandbox/accounts'),
      httpCall(url, 'PUT', '/__sandbox/state', { body: '{bad' }),
      httpCall(url, 'OPTIONS', '/api/v1/ext/agents', {
        headers: { Origin: 'http://app.example', 'Access-Control-Request-Method': 'GET' },
      }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 401, 404, 200, 404, 200, 400, 204]);
    for (const a of answers) expect(a.headers['x-powered-by']).toBeUndefined();
  });

  it('the API is open to other origins (CORS), the control API is not', async () => {
    const apiPreflight = await httpCall(url, 'OPTIONS', '/api/v1/ext/tasks', {
      headers: {
        Origin: 'http://app.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type',
      },
    });
    expect(apiPreflight.headers['access-control-allow-origin']).toBe('*');
    expect(String(apiPreflight.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');

    const controlPreflight = await httpCall(url, 'OPTIONS', '/__sandbox/reset', {
      headers: { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(controlPreflight.status).toBe(403);
    expect(controlPreflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('a cross-origin form post to the control API (no preflight) is refused and changes nothing', async () => {
    sandbox.accounts.update('acc_demo', { balanceUsd: 123 });
    const res = await httpCall(url, 'POST', '/__sandbox/reset', {
      headers: { Origin: 'http://evil.example', 'Content-Type': 'text/plain' },
      body: '',
    });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('insufficient_scope');
    expect(ERRORS.insufficient_scope.status).toBe(403);
    expect(sandbox.accounts.get('acc_demo')!.balance_usd).toBe(123);
  });

  it('DNS rebinding: a same-origin request addressed to another host name is refused on a loopback bind', async () => {
    const rebound = await httpCall(url, 'POST', '/__sandbox/reset', {
      headers: { Host: `evil.example:${port}`, Origin: `http://evil.example:${port}` },
    });
    expect(rebound.status).toBe(403);
    expect(sandbox.accounts.get('acc_demo')!.balance_usd).toBe(123);
    const local = await httpCall(url, 'GET', '/__sandbox/accounts', {
      headers: { Host: `localhost:${port}`, Origin: `http://localhost:${port}` },
    });
    expect(local.status).toBe(200);
  });
});
