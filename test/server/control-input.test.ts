/**
 * Issue 14, item 6 (and issue 17, item 4): the control API refuses what is not JSON (415), malformed or unknown
 * filters (400), bodies nested too deep (400, at once, memory flat), and values the shared schemas refuse (400 naming
 * the field), through every door: control API, library, state files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/index.js';
import { httpCall } from './cli-server.js';

let sandbox: Sandbox;
let origin: string;
let close: () => Promise<void>;

beforeAll(async () => {
  sandbox = createSandbox({ clock: 'manual' });
  const running = await sandbox.listen({ port: 0 });
  origin = running.url;
  close = running.close;
});
afterAll(() => close());

const errorOf = (res: { json?: unknown }) => (res.json as { error: { code: string; message: string } }).error;

describe('a body that is not JSON', () => {
  it('answers 415 for a text/plain body, and creates nothing', async () => {
    const before = sandbox.accounts.list().length;
    const res = await httpCall(origin, 'POST', '/__sandbox/accounts', {
      headers: { 'content-type': 'text/plain' },
      body: '{"plan":"free"}',
    });
    expect(res.status).toBe(415);
    expect(errorOf(res).code).toBe('unsupported_media_type');
    expect(sandbox.accounts.list().length).toBe(before);
  });

  it('answers 415 for a form body and for a body with no Content-Type', async () => {
    expect(
      (
        await httpCall(origin, 'POST', '/__sandbox/keys', {
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'scopes=admin',
        })
      ).status,
    ).toBe(415);
    expect(
      (await httpCall(origin, 'POST', '/__sandbox/reset', { headers: { 'content-type': '' }, body: 'x' })).status,
    ).toBe(415);
  });

  it('reads application/json and application/*+json bodies, and a request with no body', async () => {
    expect(
      (
        await httpCall(origin, 'POST', '/__sandbox/clock', {
          headers: { 'content-type': 'application/merge-patch+json' },
          body: { advance: 0 },
        })
      ).status,
    ).toBe(200);
    expect((await httpCall(origin, 'POST', '/__sandbox/clock')).status).toBe(200);
  });
});

describe('scenario filters', () => {
  for (const query of [
    'account_id[__proto__]=x',
    'account_id[]=a',
    'acount_id=acc_demo',
    'scope=everything',
    'account_id=a&account_id=b',
    'key_id=',
  ]) {
    it(`DELETE /__sandbox/scenarios?${query} is a 400 and clears nothing`, async () => {
      sandbox.reset();
      sandbox.useScenario('latency', { accountId: 'acc_demo' });
      const before = sandbox.overview().scenarios.length;
      const res = await httpCall(origin, 'DELETE', `/__sandbox/scenarios?${query}`);
      expect(res.status).toBe(400);
      expect(errorOf(res).code).toBe('invalid_request');
      expect(sandbox.overview().scenarios.length).toBe(before);
    });
  }

  it('a well-formed filter still clears its scope only', async () => {
    sandbox.reset();
    sandbox.useScenario('latency', { accountId: 'acc_demo' });
    const before = sandbox.overview().scenarios.length;
    expect((await httpCall(origin, 'DELETE', '/__sandbox/scenarios?account_id=acc_demo')).status).toBe(204);
    expect(sandbox.overview().scenarios.length).toBe(before - 1);
  });
});

describe('a body nested too deep', () => {
  it('refuses a 4.8 MB deeply nested body to PUT /__sandbox/state within 250 ms, memory flat, state unchanged', async () => {
    sandbox.reset();
    const before = JSON.stringify(sandbox.snapshot());
    const half = 2_400_000;
    const nested = '['.repeat(half) + ']'.repeat(half);
    globalThis.gc?.();
    const heap = process.memoryUsage().heapUsed;
    const started = performance.now();
    const res = await httpCall(origin, 'PUT', '/__sandbox/state', { body: nested });
    const took = performance.now() - started;
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toMatch(/nested deeper than 64/);
    expect(took).toBeLessThan(250);
    // The body string itself is 4.8 MB of the test's own; the server kept none of it beyond a few chunks.
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(40 * 1024 * 1024);
    expect(JSON.stringify(sandbox.snapshot())).toBe(before);
    expect((await httpCall(origin, 'GET', '/__sandbox/clock')).status).toBe(200);
  });

  it('reads a body nested within the limit (a snapshot round-trips)', async () => {
    const snap = (await httpCall(origin, 'GET', '/__sandbox/state')).json;
    expect((await httpCall(origin, 'PUT', '/__sandbox/state', { body: snap })).status).toBe(204);
  });
});

describe('one set of schemas: a 400 names the field', () => {
  it('refuses a negative balance through the control API, naming balance_usd, and changes nothing', async () => {
    sandbox.reset();
    const before = sandbox.accounts.list().length;
    const created = await httpCall(origin, 'POST', '/__sandbox/accounts', { body: { balance_usd: -5 } });
    expect(created.status).toBe(400);
    expect(errorOf(created).message).toMatch(/^balance_usd: /);
    expect(sandbox.accounts.list().length).toBe(before);
    const patched = await httpCall(origin, 'PATCH', '/__sandbox/accounts/acc_demo', { body: { balance_usd: -1 } });
    expect(patched.status).toBe(400);
    expect(errorOf(patched).message).toMatch(/^balance_usd: /);
    expect(sandbox.accounts.get('acc_demo')!.balance_usd).toBe(50);
  });

  it('refuses a negative balance in a state file (PUT /__sandbox/state), naming the field', async () => {
    const snap = sandbox.snapshot() as unknown as { accounts: { balanceNano: number }[] };
    snap.accounts[0]!.balanceNano = -1;
    const res = await httpCall(origin, 'PUT', '/__sandbox/state', { body: snap });
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toMatch(/balanceNano/);
  });

  it('refuses the same values in the library, naming the field', () => {
    expect(() => sandbox.accounts.create({ balanceUsd: -5 })).toThrow(/balanceUsd: must be a number ≥ 0/);
    expect(() => sandbox.accounts.update('acc_demo', { limits: { rpm: 1.5 } })).toThrow(
      /limits\.rpm: must be a whole number/,
    );
    expect(() => sandbox.keys.create({ scopes: ['root' as never] })).toThrow(/scopes\.0: must be one of/);
  });

  it('names an unknown or mistyped field of a control body', async () => {
    const unknown = await httpCall(origin, 'POST', '/__sandbox/keys', {
      body: { scopes: ['admin'], acount_id: 'acc_demo' },
    });
    expect(unknown.status).toBe(400);
    expect(errorOf(unknown).message).toContain("'acount_id'");
    const typed = await httpCall(origin, 'POST', '/__sandbox/keys', { body: { scopes: 'admin' } });
    expect(typed.status).toBe(400);
    expect(errorOf(typed).message).toMatch(/^scopes: /);
    const limits = await httpCall(origin, 'PATCH', '/__sandbox/accounts/acc_demo', { body: { limits: { rpm: -3 } } });
    expect(errorOf(limits).message).toMatch(/^limits\.rpm: must be > 0/);
    const array = await httpCall(origin, 'POST', '/__sandbox/accounts', { body: [] });
    expect(array.status).toBe(400);
  });
});

describe('error messages are bounded, and say what is wrong', () => {
  it('a body with 300,000 unknown fields: refused at once with a short message, quickly', async () => {
    const fields = Object.fromEntries(Array.from({ length: 300_000 }, (_, i) => [`f${i}`, 1]));
    const t0 = performance.now();
    const res = await httpCall(origin, 'POST', '/__sandbox/accounts', { body: fields });
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toMatch(/^Invalid request body: more than 1000 fields at its top level/);
    expect(res.text.length).toBeLessThan(300);
    expect(performance.now() - t0).toBeLessThan(5_000);
  });

  it('unknown fields are named up to the first five, then counted', async () => {
    const fields = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}`, 1]));
    const res = await httpCall(origin, 'POST', '/__sandbox/accounts', { body: fields });
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toBe("Unknown fields 'f0', 'f1', 'f2', 'f3', 'f4' and 45 more in the request body.");
  });

  it('one unknown field is named alone (a careful client sees the field it got wrong)', async () => {
    const res = await httpCall(origin, 'POST', '/__sandbox/accounts', { body: { plann: 'pro' } });
    expect(errorOf(res).message).toBe("Unknown field 'plann' in the request body.");
  });

  it('{"advance": 1e400} is "not a finite number", not an unknown field; both advance and set are refused', async () => {
    const now = sandbox.clock.now();
    const res = await httpCall(origin, 'POST', '/__sandbox/clock', { body: '{"advance": 1e400}' });
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toBe('advance: is not a finite number.');
    const both = await httpCall(origin, 'POST', '/__sandbox/clock', { body: { advance: 1, set: 0 } });
    expect(both.status).toBe(400);
    expect(errorOf(both).message).toMatch(/not both/);
    const balance = await httpCall(origin, 'POST', '/__sandbox/accounts', { body: '{"balance_usd": -1e400}' });
    expect(errorOf(balance).message).toBe('balance_usd: is not a finite number.');
    expect(sandbox.clock.now()).toBe(now);
    expect((await httpCall(origin, 'POST', '/__sandbox/clock', { body: { advance: '1s' } })).status).toBe(200);
  });

  it('options.__proto__ is refused like any unknown option, and nothing is applied', async () => {
    const before = sandbox.overview().scenarios.length;
    const res = await httpCall(origin, 'POST', '/__sandbox/scenarios', {
      body: '{"name": "latency", "options": {"__proto__": {"ms": 1}}}',
    });
    expect(res.status).toBe(400);
    expect(errorOf(res).message).toBe("Unknown field 'options.__proto__' in the request body.");
    const unknown = await httpCall(origin, 'POST', '/__sandbox/scenarios', {
      body: { name: 'latency', options: { nope: 1 } },
    });
    expect(unknown.status).toBe(400);
    expect(sandbox.overview().scenarios.length).toBe(before);
  });
});
