/** The node server over a real socket: CORS, headers, the body limit, bad requests, and the control API (CONTRACT §7). */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/index.js';
import { keyOf } from '../support/doors.js';
import { expectError, expectRateHeaders } from '../support/assert.js';

let sandbox: Sandbox;
let url: string;
let close: () => Promise<void>;
beforeAll(async () => {
  sandbox = createSandbox({ clock: 'manual' });
  ({ url, close } = await sandbox.listen({ port: 0 }));
});
afterAll(() => close());
beforeEach(() => sandbox.reset());

async function call(
  method: string,
  path: string,
  init: { body?: unknown; headers?: Record<string, string>; key?: string } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key) headers.Authorization = `Bearer ${init.key}`;
  let body: string | undefined;
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(url + path, { method, headers, body });
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Sends raw bytes and returns what the server writes back before closing. */
function raw(bytes: string): Promise<string> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let out = '';
    socket.on('data', (d: Buffer) => (out += d.toString()));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}

const agentId = () => sandbox.snapshot().agents[0]!.id;

describe('HTTP around the API', () => {
  it('answers a CORS preflight for /api/v1 allowing Authorization, Content-Type, Idempotency-Key and X-Sandbox-Scenario', async () => {
    const res = await call('OPTIONS', '/api/v1/ext/tasks', {
      headers: {
        Origin: 'http://app.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers':
          'authorization,content-type,idempotency-key,x-sandbox-scenario,x-sandbox-explain',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toMatch(/POST/);
    const allowed = res.headers
      .get('access-control-allow-headers')!
      .toLowerCase()
      .split(/\s*,\s*/);
    for (const h of ['authorization', 'content-type', 'idempotency-key', 'x-sandbox-scenario', 'x-sandbox-explain'])
      expect(allowed).toContain(h);
  });

  it('lets a browser read the three rate-limit headers, on success and on errors', async () => {
    for (const key of [keyOf(sandbox), undefined]) {
      const res = await call('GET', '/api/v1/ext/agents', { key, headers: { Origin: 'http://app.example' } });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const exposed = res.headers.get('access-control-expose-headers')!.toLowerCase();
      for (const h of [
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'x-ratelimit-reset',
        'retry-after',
        'x-sandbox-trace',
      ])
        expect(exposed).toContain(h);
    }
  });

  it('sends no X-Powered-By, on the API, the control API or elsewhere', async () => {
    for (const path of ['/api/v1/ext/agents', '/api/v1/nothing', '/__sandbox/accounts', '/nothing', '/']) {
      expect((await call('GET', path, { key: keyOf(sandbox) })).headers.get('x-powered-by'), path).toBeNull();
    }
  });

  it.each(['/nothing', '/api/v2/ext/agents', '/api/v1x/ext/agents', '/API/V1/ext/agents', '/__sandboxx'])(
    'answers a path outside the API (%s) with 404 in the error shape',
    async (path) => {
      expectError(await call('GET', path), 'not_found');
    },
  );

  it('answers a POST /ext/tasks body over 1 MiB with 413 request_too_large in the error shape, and creates nothing', async () => {
    const body = JSON.stringify({ agent_id: agentId(), description: 'x'.repeat(1024 * 1024 + 10) });
    const res = await call('POST', '/api/v1/ext/tasks', { key: keyOf(sandbox, 'write:tasks'), body });
    expectError(res, 'request_too_large');
    expectRateHeaders(res, { limit: 300, remaining: 299 });
    expect(sandbox.tasks.list()).toEqual([]);
    expect((await call('GET', '/api/v1/ext/agents', { key: keyOf(sandbox) })).status).toBe(200);
  });

  it('counts requests without a valid key per client address: another client has its own 60 a minute', async () => {
    for (let i = 0; i < 60; i++) await call('GET', '/api/v1/ext/agents');
    expectError(await call('GET', '/api/v1/ext/agents'), 'rate_limit_exceeded');
    const other = await new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
      const req = request(`${url}/api/v1/ext/agents`, { localAddress: '127.0.0.2' }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(other.status).toBe(401);
    expect(other.headers['x-ratelimit-remaining']).toBe('59');
  });

  it('survives malformed HTTP requests: 400 in the error shape, and goes on serving', async () => {
    for (const bytes of [
      'NOT HTTP AT ALL\r\n\r\n',
      'GET /api/v1/ext/agents HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
      'POST /api/v1/ext/tasks HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"agent',
      'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n',
    ]) {
      const out = await raw(bytes);
      expect(out).toMatch(/^HTTP\/1\.1 400 /);
      expect(out.slice(out.indexOf('\r\n\r\n') + 4)).toMatch(
        /^\{"error":\{"code":"invalid_request","message":"[^"]+"\}\}$/,
      );
    }
    expect((await call('GET', '/api/v1/ext/agents', { key: keyOf(sandbox) })).status).toBe(200);
  });
});

describe('the control API (CONTRACT §7)', () => {
  it('GET /__sandbox/accounts lists every account with id, plan and balance_usd', async () => {
    const res = await call('GET', '/__sandbox/accounts');
    expect(res.status).toBe(200);
    expect(res.json.data.map((a: any) => [a.id, a.plan, a.balance_usd])).toEqual([
      ['acc_demo', 'pro', 50],
      ['acc_free', 'free', 0],
      ['acc_starter', 'starter', 10],
      ['acc_enterprise', 'enterprise', 200],
      ['acc_magic', 'enterprise', 200],
    ]);
  });

  it('PATCH /__sandbox/accounts/:id changes plan, balance and limits, and the API follows', async () => {
    const key = keyOf(sandbox, 'admin', 'acc_free');
    const res = await call('PATCH', '/__sandbox/accounts/acc_free', { body: { plan: 'starter', balance_usd: 12.5 } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      id: 'acc_free',
      plan: 'starter',
      balance_usd: 12.5,
      limits: { rpm: 60, tpm: 60_000 },
    });
    expectRateHeaders(await call('GET', '/api/v1/ext/usage', { key }), { limit: 60 });
    await call('PATCH', '/__sandbox/accounts/acc_free', { body: { limits: { rpm: 2 } } });
    const usage = await call('GET', '/api/v1/ext/usage', { key });
    expectRateHeaders(usage, { limit: 2 });
    expect(usage.json).toMatchObject({ plan: 'starter', balance_usd: 12.5, limits: { rpm: 2 } });
  });

  it('POST /__sandbox/accounts creates an account with an admin key', async () => {
    const res = await call('POST', '/__sandbox/accounts', { body: { plan: 'enterprise', balance_usd: 3 } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ plan: 'enterprise', balance_usd: 3, key: { scopes: ['admin'] } });
    const usage = await call('GET', '/api/v1/ext/usage', { key: res.json.key.key });
    expect(usage.json).toMatchObject({ account_id: res.json.id, plan: 'enterprise', balance_usd: 3 });
  });

  it('POST /__sandbox/keys mints a key (201) and DELETE /__sandbox/keys/:id revokes it (204), by id or by the key itself', async () => {
    for (const by of ['id', 'key'] as const) {
      const res = await call('POST', '/__sandbox/keys', {
        body: { account_id: 'acc_starter', scopes: ['read:usage'] },
      });
      expect(res.status).toBe(201);
      expect(Object.keys(res.json).sort()).toEqual(['account_id', 'id', 'key', 'scopes']);
      expect(res.json).toMatchObject({ account_id: 'acc_starter', scopes: ['read:usage'] });
      expect(res.json.key).toMatch(/^ak_[A-Za-z0-9_-]+$/);
      expect((await call('GET', '/api/v1/ext/usage', { key: res.json.key })).json.account_id).toBe('acc_starter');
      expectError(await call('GET', '/api/v1/ext/agents', { key: res.json.key }), 'insufficient_scope');
      expect((await call('DELETE', `/__sandbox/keys/${encodeURIComponent(res.json[by])}`)).status).toBe(204);
      expectError(await call('GET', '/api/v1/ext/usage', { key: res.json.key }), 'invalid_api_key');
    }
  });

  it('POST /__sandbox/clock advances or sets the clock and answers { now }; rate windows follow it', async () => {
    const start = sandbox.clock.now();
    expect((await call('POST', '/__sandbox/clock', { body: { advance: '90s' } })).json.now).toBe(
      new Date(start + 90_000).toISOString(),
    );
    expect((await call('POST', '/__sandbox/clock', { body: { advance: 500 } })).json.now).toBe(
      new Date(start + 90_500).toISOString(),
    );
    expect((await call('POST', '/__sandbox/clock', { body: { set: '2026-03-01T12:00:00Z' } })).json.now).toBe(
      '2026-03-01T12:00:00.000Z',
    );
    expectRateHeaders(await call('GET', '/api/v1/ext/agents', { key: keyOf(sandbox) }), {
      resetAt: Date.parse('2026-03-01T12:01:00Z'),
    });
  });

  it('POST /__sandbox/scenarios applies a scenario (204); DELETE /__sandbox/scenarios clears them (204)', async () => {
    const key = keyOf(sandbox);
    expect((await call('POST', '/__sandbox/scenarios', { body: { name: 'rate-limited' } })).status).toBe(204);
    expectError(await call('GET', '/api/v1/ext/agents', { key }), 'rate_limit_exceeded');
    expect((await call('DELETE', '/__sandbox/scenarios')).status).toBe(204);
    expect((await call('GET', '/api/v1/ext/agents', { key })).status).toBe(200);
  });

  it('GET /__sandbox/requests is the journal, newest last; control requests are not in it nor in usage nor rate-limited', async () => {
    const key = keyOf(sandbox);
    await call('GET', '/api/v1/ext/agents', { key });
    await call('GET', '/api/v1/ext/nothing', { key });
    for (let i = 0; i < 5; i++) await call('GET', '/__sandbox/accounts');
    const journal = (await call('GET', '/__sandbox/requests')).json.data;
    expect(journal.map((e: any) => [e.method, e.path, e.status, e.code])).toEqual([
      ['GET', '/api/v1/ext/agents', 200, null],
      ['GET', '/api/v1/ext/nothing', 404, 'not_found'],
    ]);
    expect((await call('GET', '/api/v1/ext/usage', { key })).json.requests.total).toBe(3);
  });

  it('POST /__sandbox/reset returns to the initial state (204)', async () => {
    const before = sandbox.snapshot();
    await call('DELETE', `/__sandbox/keys/${keyOf(sandbox)}`);
    await call('PATCH', '/__sandbox/accounts/acc_demo', { body: { balance_usd: 1 } });
    expect((await call('POST', '/__sandbox/reset')).status).toBe(204);
    expect(sandbox.snapshot()).toEqual(before);
    expect((await call('GET', '/api/v1/ext/agents', { key: keyOf(sandbox) })).status).toBe(200);
  });

  it('GET /__sandbox/state gives a snapshot; PUT /__sandbox/state restores it (204)', async () => {
    const saved = (await call('GET', '/__sandbox/state')).json;
    expect(saved.format).toBe('agent-work-sandbox/state');
    await call('PATCH', '/__sandbox/accounts/acc_demo', { body: { plan: 'free', limits: { rpm: 3 } } });
    await call('POST', '/api/v1/ext/tasks', {
      key: keyOf(sandbox),
      body: { agent_id: agentId(), description: 'Summarise.' },
    });
    await call('POST', '/__sandbox/keys', { body: { scopes: ['read:usage'], label: 'mine' } });
    await call('POST', '/__sandbox/accounts', { body: { name: 'Other', plan: 'starter' } });
    const busy = (await call('GET', '/__sandbox/state')).json;
    expect((await call('PUT', '/__sandbox/state', { body: saved })).status).toBe(204);
    expect((await call('GET', '/__sandbox/state')).json).toEqual(saved);
    expect((await call('PUT', '/__sandbox/state', { body: busy })).status).toBe(204);
    expect((await call('GET', '/__sandbox/state')).json).toEqual(busy);
  });

  it.each([
    ['bad JSON', 'PATCH', '/__sandbox/accounts/acc_demo', '{"plan":', 'invalid_request'],
    ['a body that is not an object', 'POST', '/__sandbox/keys', '[1,2]', 'invalid_request'],
    ['an unknown account', 'PATCH', '/__sandbox/accounts/acc_nope', { plan: 'pro' }, 'not_found'],
    ['a bad plan', 'PATCH', '/__sandbox/accounts/acc_demo', { plan: 'gold' }, 'invalid_request'],
    ['a negative balance', 'PATCH', '/__sandbox/accounts/acc_demo', { balance_usd: -1 }, 'invalid_request'],
    ['a bad limit', 'PATCH', '/__sandbox/accounts/acc_demo', { limits: { rpm: 0 } }, 'invalid_request'],
    ['bad scopes', 'POST', '/__sandbox/keys', { scopes: ['read:everything'] }, 'invalid_request'],
    ['no scopes', 'POST', '/__sandbox/keys', {}, 'invalid_request'],
    ['a key label that is not a string', 'POST', '/__sandbox/keys', { scopes: ['admin'], label: 7 }, 'invalid_request'],
    [
      'an account name that is not a string',
      'POST',
      '/__sandbox/accounts',
      { name: { first: 'x' } },
      'invalid_request',
    ],
    [
      'a key for an unknown account',
      'POST',
      '/__sandbox/keys',
      { account_id: 'acc_nope', scopes: ['admin'] },
      'not_found',
    ],
    [
      "a key past the plan's limit (Free: 1 key)",
      'POST',
      '/__sandbox/keys',
      { account_id: 'acc_free', scopes: ['admin'] },
      'invalid_request',
    ],
    ['revoking an unknown key', 'DELETE', '/__sandbox/keys/key_nope', undefined, 'not_found'],
    ['a bad clock duration', 'POST', '/__sandbox/clock', { advance: 'soon' }, 'invalid_request'],
    ['a bad clock time', 'POST', '/__sandbox/clock', { set: 'yesterday' }, 'invalid_request'],
    ['a clock beyond the year 9998', 'POST', '/__sandbox/clock', { advance: 1e300 }, 'invalid_request'],
    ['a clock before 1970', 'POST', '/__sandbox/clock', { set: -1e20 }, 'invalid_request'],
    ['an unknown scenario', 'POST', '/__sandbox/scenarios', { name: 'meteor-strike' }, 'invalid_request'],
    ['a state that is not a snapshot', 'PUT', '/__sandbox/state', { hello: 'world' }, 'invalid_request'],
    ['a snapshot with a null account', 'PUT', '/__sandbox/state', 'accounts', 'invalid_request'],
    ['a snapshot with an empty key', 'PUT', '/__sandbox/state', 'keys', 'invalid_request'],
    ['a snapshot whose key names no account', 'PUT', '/__sandbox/state', 'orphan', 'invalid_request'],
    ['an unknown control route', 'GET', '/__sandbox/nothing', undefined, 'not_found'],
  ] as const)('answers %s in the error shape and changes nothing', async (_what, method, path, body, code) => {
    const before = sandbox.snapshot();
    const broken = {
      accounts: { ...before, accounts: [null] },
      keys: { ...before, keys: [{}] },
      orphan: { ...before, keys: [{ ...before.keys[0], accountId: 'acc_nope' }] },
    };
    expectError(
      await call(method, path, {
        body: path === '/__sandbox/state' ? (broken[body as keyof typeof broken] ?? body) : body,
      }),
      code,
    );
    expect(sandbox.snapshot()).toEqual(before);
  });

  it('refuses a cross-origin request and serves a same-origin one', async () => {
    const cross = await call('POST', '/__sandbox/reset', { headers: { Origin: 'http://evil.example' } });
    expect(cross.status).toBe(403);
    expect(Object.keys(cross.json.error).sort()).toEqual(['code', 'message']);
    expect(cross.headers.get('access-control-allow-origin')).toBeNull();
    expectError(
      await call('PATCH', '/__sandbox/accounts/acc_demo', {
        body: { balance_usd: 0 },
        headers: { Origin: 'http://evil.example' },
      }),
      'insufficient_scope',
    );
    expect(sandbox.accounts.get('acc_demo')!.balance_usd).toBe(50);
    expect((await call('GET', '/__sandbox/accounts', { headers: { Origin: new URL(url).origin } })).status).toBe(200);
  });
});
