import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, type CliRun } from '../../src/cli/main.js';
import { ERRORS } from '../../src/index.js';
import { handlers } from './fixtures-handlers/analytics.mjs';
import { DOORS, keyOf, type Door } from '../support/doors.js';

describe.each(DOORS)('your own handlers beside the sandbox (%s)', (_name, open) => {
  let door: Door;
  let admin: string;
  beforeAll(async () => {
    door = await open({ clock: 'manual', handlers });
    admin = keyOf(door.sandbox);
  });
  afterAll(() => door.close());

  it('answers an endpoint the API document does not show, with the rate-limit headers and the caller', async () => {
    const res = await door.call('GET', '/ext/analytics', { key: admin });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ account_id: 'acc_demo', p50_ms: 840 });
    expect(res.headers.get('x-ratelimit-limit')).toBe('300');
    expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThan(300);
    expect(res.headers.get('x-ratelimit-reset')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(door.sandbox.requests.at(-1)).toMatchObject({
      path: '/api/v1/ext/analytics',
      status: 200,
      code: null,
      accountId: 'acc_demo',
    });
  });

  it('runs after auth: no key is 401 missing_api_key, and the handler never runs', async () => {
    const res = await door.call('GET', '/ext/analytics');
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe('missing_api_key');
  });

  it("sees the key's scopes (X-Sandbox-Scopes), which a client cannot forge", async () => {
    const res = await door.call('GET', '/ext/analytics', {
      key: keyOf(door.sandbox, 'read:agents'),
      headers: { 'X-Sandbox-Scopes': 'admin' },
    });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('insufficient_scope');
    expect(door.sandbox.requests.at(-1)).toMatchObject({ status: 403, code: 'insufficient_scope' });
  });

  it('gets the request body', async () => {
    const res = await door.call('POST', '/ext/agents', { key: admin, body: { name: 'Mine' } });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ id: 'agt_custom', name: 'Mine' });
  });

  it('keeps the error shape when a handler answers an error without it', async () => {
    const res = await door.call('GET', '/ext/teapot', { key: admin });
    expect(res.status).toBe(418);
    expect(res.json).toEqual({ error: { code: 'invalid_request', message: 'short and stout' } });
    expect(res.headers.get('x-ratelimit-limit')).toBe('300');
  });

  it('answers 500 internal_error in the error shape when a handler throws (no stack)', async () => {
    const res = await door.call('GET', '/ext/broken', { key: admin });
    expect(res.status).toBe(500);
    expect(res.json).toEqual({ error: { code: 'internal_error', message: ERRORS.internal_error.message } });
    expect(res.text).not.toContain('secret');
  });

  it('leaves 404 not_found for what no handler answers, and the API routes to the sandbox', async () => {
    const res = await door.call('GET', '/ext/nothing', { key: admin });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('not_found');
    expect((await door.call('GET', '/ext/agents', { key: admin })).json.data).toHaveLength(20);
  });

  it('counts against the rate limit like any request', async () => {
    const free = keyOf(door.sandbox, 'admin', 'acc_free');
    for (let i = 0; i < 10; i++) await door.call('GET', '/ext/analytics', { key: free });
    const res = await door.call('GET', '/ext/analytics', { key: free });
    expect(res.status).toBe(429);
    expect(res.json.error.code).toBe('rate_limit_exceeded');
  });
});

describe('--handlers FILE', () => {
  let run: CliRun | undefined;
  afterAll(() => run?.stop());
  const io = { stdout: () => {}, stderr: () => {}, env: {} };

  it("mounts the module's handlers in the server", async () => {
    run = await main(
      ['--port', '0', '-q', '--handlers', join(import.meta.dirname, 'fixtures-handlers', 'analytics.mjs')],
      io,
    );
    const key = run!.sandbox.keys.list('acc_demo').find((k) => k.label === 'admin')!.key;
    const res = await fetch(`${run!.server.url}/api/v1/ext/analytics`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ account_id: 'acc_demo', p50_ms: 840 });
  });

  it('a missing module, or one without handlers, is an error naming the file', async () => {
    await expect(main(['--port', '0', '--handlers', join(import.meta.dirname, 'nope.mjs')], io)).rejects.toThrow(
      /Cannot load the handlers module .*nope\.mjs/,
    );
    await expect(
      main(['--port', '0', '--handlers', join(import.meta.dirname, 'fixtures-handlers', 'not-handlers.mjs')], io),
    ).rejects.toThrow(/not-handlers\.mjs must export an array of msw request handlers/);
  });
});
