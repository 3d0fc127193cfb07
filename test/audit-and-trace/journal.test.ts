/** The request journal: what each entry holds, the filters (library and control API), clearing, the bound. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateDefaultFixtures } from '../../src/model/default-fixtures.js';
import { keyOf, overSocket, type Door } from '../support/doors.js';

const AGENT = generateDefaultFixtures(1).agents[0]!.id;
let door: Door;
beforeEach(async () => {
  door = await overSocket({ clock: 'manual', journalSize: 5 });
});
afterEach(() => door.close());

const control = (path: string, method = 'GET') => door.call(method, `/../../__sandbox${path}`);

async function traffic(): Promise<void> {
  await door.call('GET', '/ext/agents?limit=2', { key: keyOf(door.sandbox) });
  await door.call('GET', '/ext/usage', { key: keyOf(door.sandbox, 'admin', 'acc_free') });
  await door.call('POST', '/ext/tasks', {
    key: keyOf(door.sandbox, 'read:agents'),
    body: { agent_id: AGENT, description: 'x' },
  });
  await door.call('GET', `/ext/agents/${AGENT}`, { key: 'ak_magic_rate_limited' });
}

describe('journal', () => {
  it('records method, path, key id, account, status, error code, time and scenarios; newest last', async () => {
    await traffic();
    const [first, , third, fourth] = door.sandbox.requests;
    expect(first).toMatchObject({
      id: 'req_000001',
      seq: 1,
      time: '2026-01-01T00:00:00.000Z',
      method: 'GET',
      path: '/api/v1/ext/agents?limit=2',
      status: 200,
      code: null,
      keyId: 'key_demo_admin',
      accountId: 'acc_demo',
      scenarios: [],
    });
    expect(third).toMatchObject({
      method: 'POST',
      status: 403,
      code: 'insufficient_scope',
      keyId: 'key_demo_read_agents',
    });
    expect(fourth).toMatchObject({
      status: 429,
      code: 'rate_limit_exceeded',
      keyId: 'key_magic_rate_limited',
      accountId: 'acc_magic',
      scenarios: ['rate-limited'],
    });
  });

  it('findRequests filters by method, path (with or without the base path, prefix with *), status, code, key, account, scenario', async () => {
    await traffic();
    const s = door.sandbox;
    expect(s.findRequests({ method: 'post' }).map((e) => e.status)).toEqual([403]);
    expect(s.findRequests({ path: '/ext/agents' })).toHaveLength(1);
    expect(s.findRequests({ path: '/api/v1/ext/agents' })).toHaveLength(1);
    expect(s.findRequests({ path: '/ext/agents*' })).toHaveLength(2);
    expect(s.findRequests({ path: /limit=2/ })).toHaveLength(1);
    expect(s.findRequests({ status: 429 })).toHaveLength(1);
    expect(s.findRequests({ code: null })).toHaveLength(2);
    expect(s.findRequests({ code: 'insufficient_scope' })).toHaveLength(1);
    expect(s.findRequests({ accountId: 'acc_demo' })).toHaveLength(2);
    expect(s.findRequests({ accountId: 'acc_demo', method: 'GET' })).toHaveLength(1);
    expect(s.findRequests({ keyId: 'key_free_admin' })[0]!.path).toBe('/api/v1/ext/usage');
    expect(s.findRequests({ scenario: 'rate-limited' })).toHaveLength(1);
    expect(s.findRequests()).toEqual(s.requests);
  });

  it('GET /__sandbox/requests takes the same filters as query parameters', async () => {
    await traffic();
    expect((await control('/requests')).json.data).toHaveLength(4);
    expect((await control('/requests?account_id=acc_demo&method=GET')).json.data).toHaveLength(1);
    expect((await control('/requests?status=429')).json.data[0].key_id).toBe('key_magic_rate_limited');
    expect((await control('/requests?code=null')).json.data).toHaveLength(2);
    expect((await control('/requests?path=%2Fext%2Fagents*&key_id=key_magic_rate_limited')).json.data).toHaveLength(1);
    expect((await control('/requests?scenario=rate-limited')).json.data).toHaveLength(1);
  });

  it('a bad filter is 400 invalid_request', async () => {
    const unknown = await control('/requests?stauts=200');
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toEqual({ code: 'invalid_request', message: expect.stringContaining("'stauts'") });
    expect((await control('/requests?status=abc')).status).toBe(400);
    expect((await control('/requests?method=GET&method=POST')).status).toBe(400);
  });

  it('clearRequests and DELETE /__sandbox/requests empty it; reset() too', async () => {
    await traffic();
    door.sandbox.clearRequests();
    expect(door.sandbox.requests).toEqual([]);
    await traffic();
    expect((await control('/requests', 'DELETE')).status).toBe(204);
    expect(door.sandbox.requests).toEqual([]);
    await traffic();
    door.sandbox.reset();
    expect(door.sandbox.requests).toEqual([]);
  });

  it('is bounded: the oldest entries are dropped', async () => {
    await traffic();
    await traffic();
    const seqs = door.sandbox.requests.map((e) => e.seq);
    expect(seqs).toEqual([4, 5, 6, 7, 8]);
  });

  it('a slot reused by a shorter request shows that request only: its steps, headers, body and answer', async () => {
    // Five POSTs (long traces, bodies, answers) fill the five slots; five GETs then take them over.
    const admin = keyOf(door.sandbox);
    for (let i = 0; i < 5; i++)
      await door.call('POST', '/ext/tasks', { key: admin, body: { agent_id: AGENT, description: `task ${i}` } });
    const gets: { path: string; headers: Record<string, string> }[] = [
      { path: '/ext/usage', headers: {} },
      { path: '/ext/agents?limit=1', headers: {} },
      { path: '/ext/agents?limit=1', headers: { 'X-Sandbox-Scenario': 'network-error' } },
      { path: `/ext/agents/${AGENT}`, headers: {} },
      { path: '/ext/usage', headers: {} },
    ];
    const answers: (string | undefined)[] = [];
    for (const g of gets)
      answers.push(
        await door.call('GET', g.path, { key: admin, headers: g.headers }).then(
          (a) => a.text,
          () => undefined,
        ),
      );

    // The same five GETs in a journal that held nothing else: the steps each one takes.
    const fresh = await overSocket({ clock: 'manual', journalSize: 5 });
    try {
      for (const g of gets)
        await fresh.call('GET', g.path, { key: keyOf(fresh.sandbox), headers: g.headers }).catch(() => undefined);
      const steps = (entries: typeof door.sandbox.requests) => entries.map((e) => e.trace.map((t) => t.step));
      expect(steps(door.sandbox.requests)).toEqual(steps(fresh.sandbox.requests));
    } finally {
      await fresh.close();
    }
    const entries = door.sandbox.requests;
    expect(entries.map((e) => e.method)).toEqual(['GET', 'GET', 'GET', 'GET', 'GET']);
    for (const [i, e] of entries.entries()) {
      expect(e.request.body).toBe('');
      expect(e.request.headers['content-type']).toBeUndefined();
      // The answer the client got, or none where the connection failed.
      expect(e.response?.body).toBe(answers[i]);
    }
    expect(entries[2]).toMatchObject({ status: 0, code: 'network_error', response: null });
  });

  it('the control API is not journaled', async () => {
    await control('/accounts');
    expect(door.sandbox.requests).toEqual([]);
  });
});

describe('masking (src/core/journal.ts maskKeys)', () => {
  const key = 'ak_FDyvN2FnqgJLpB6LFoh3UM9jf5dTpHiM';
  it('masks a text once: masking a masked text changes nothing', async () => {
    const { maskKeys } = await import('../../src/core/mask.js');
    const once = maskKeys(`GET /ext/tasks/${key}`);
    expect(once).toBe('GET /ext/tasks/ak_FDyv…');
    expect(maskKeys(once)).toBe(once);
    expect(maskKeys('ak_…')).toBe('ak_…');
  });
  it('a whole key followed by "…" is still masked (the mark of a masked key is no way around the mask)', async () => {
    const { maskKeys } = await import('../../src/core/mask.js');
    expect(maskKeys(`${key}…`)).not.toContain(key.slice(7));
  });
});
