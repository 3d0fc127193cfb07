/** The read endpoints as served (CONTRACT §2): the agent list with paging, one agent, and the usage statistics. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DOORS, keyOf, type Door } from '../support/doors.js';
import { expectError, ISO_UTC } from '../support/assert.js';

const AGENT_FIELDS = ['capabilities', 'created_at', 'description', 'id', 'model', 'name', 'pricing', 'status'];
/** §8 Token pricing: dollars per 1M tokens, input and output. */
const DOC_PRICES = { 'model-a': [3.25, 13], 'model-b': [0.2, 0.6], 'model-c': [3.9, 19.5] } as const;

describe.each(DOORS)('read endpoints, %s door', (_name, open) => {
  let door: Door;
  let key: string;
  const get = (path: string, k = key) => door.call('GET', path, { key: k });
  beforeAll(async () => {
    door = await open({ clock: 'manual' });
  });
  afterAll(() => door.close());
  beforeEach(() => {
    door.sandbox.reset();
    key = keyOf(door.sandbox, 'read:agents');
  });

  describe('GET /ext/agents', () => {
    it('answers 200 with { data, has_more, next_cursor } and 20 agents by default', async () => {
      const res = await get('/ext/agents');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(Object.keys(res.json)).toEqual(['data', 'has_more', 'next_cursor']);
      expect(res.json.data).toHaveLength(20);
      expect(res.json.has_more).toBe(true);
      expect(typeof res.json.next_cursor).toBe('string');
    });

    it('limit=100 lists the whole catalog on one page: has_more false, next_cursor null', async () => {
      const res = await get('/ext/agents?limit=100');
      expect(res.json.data).toHaveLength(door.sandbox.snapshot().agents.length);
      expect(res.json.has_more).toBe(false);
      expect(res.json.next_cursor).toBeNull();
    });

    it.each([1, 5, 7, 20, 23, 24, 100])(
      'walking every page with limit=%i returns every agent exactly once, in order',
      async (limit) => {
        const all = (await get('/ext/agents?limit=100')).json.data.map((a: { id: string }) => a.id);
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const res = await get(`/ext/agents?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
          expect(res.status, res.text).toBe(200);
          expect(res.json.data.length).toBeLessThanOrEqual(limit);
          expect(res.json.has_more).toBe(res.json.next_cursor !== null);
          seen.push(...res.json.data.map((a: { id: string }) => a.id));
          cursor = res.json.next_cursor;
          pages += 1;
        } while (cursor !== null && pages < 200);
        expect(seen).toEqual(all);
        expect(new Set(seen).size).toBe(seen.length);
        expect(pages).toBe(Math.max(1, Math.ceil(all.length / limit)));
      },
    );

    it('the same cursor gives the same page again', async () => {
      const cursor = (await get('/ext/agents?limit=3')).json.next_cursor;
      const a = await get(`/ext/agents?limit=3&cursor=${cursor}`);
      const b = await get(`/ext/agents?limit=3&cursor=${cursor}`);
      expect(a.text).toBe(b.text);
    });

    it.each(['abc', '0', '101', '1.5', '-1', '', '1e1', ' 5', '0x10', '99999999999999999999'])(
      'limit=%j → 400 invalid_request naming the parameter',
      async (raw) => {
        const res = await get(`/ext/agents?limit=${encodeURIComponent(raw)}`);
        expectError(res, 'invalid_request');
        expect(res.json.error.message).toContain("'limit'");
      },
    );

    it.each([
      ['a string never issued', 'bogus'],
      ['base64url of an unknown id', btoa('agt_doesnotexist0000').replace(/=+$/, '')],
      ['not base64url at all', '%%%'],
      ['empty', ''],
    ])('a cursor never issued (%s) → 400 invalid_request naming the parameter', async (_what, raw) => {
      const res = await get(`/ext/agents?cursor=${encodeURIComponent(raw)}`);
      expectError(res, 'invalid_request');
      expect(res.json.error.message).toContain("'cursor'");
    });

    it('a bad query parameter changes nothing but the request count', async () => {
      const before = door.sandbox.snapshot();
      await get('/ext/agents?limit=abc');
      const after = door.sandbox.snapshot();
      expect({ ...after, accounts: [], buckets: [] }).toEqual({ ...before, accounts: [], buckets: [] });
    });
  });

  describe('GET /ext/agents/:id', () => {
    it('answers the Agent record of CONTRACT §2, the same as in the list', async () => {
      const list = (await get('/ext/agents?limit=100')).json.data;
      for (const listed of list) {
        const res = await get(`/ext/agents/${listed.id}`);
        expect(res.status).toBe(200);
        const agent = res.json;
        expect(agent).toEqual(listed);
        expect(Object.keys(agent).sort()).toEqual(AGENT_FIELDS);
        expect(agent.id).toMatch(/^agt_[a-z0-9]+$/);
        expect(typeof agent.name).toBe('string');
        expect(agent.name.length).toBeGreaterThan(0);
        expect(typeof agent.description).toBe('string');
        expect(agent.capabilities.length).toBeGreaterThan(0);
        for (const c of agent.capabilities) expect(typeof c).toBe('string');
        expect(['model-a', 'model-b', 'model-c']).toContain(agent.model);
        const [input, output] = DOC_PRICES[agent.model as keyof typeof DOC_PRICES];
        expect(agent.pricing).toMatchObject({ input_per_1m_tokens: input, output_per_1m_tokens: output });
        expect(['available', 'unavailable']).toContain(agent.status);
        expect(agent.created_at).toMatch(ISO_UTC);
      }
      expect(new Set(list.map((a: { model: string }) => a.model)).size).toBeGreaterThan(1);
    });

    it('a percent-encoded id names the same agent', async () => {
      const id = door.sandbox.snapshot().agents[0]!.id;
      const res = await get(`/ext/agents/${encodeURIComponent(id).replace('_', '%5F')}`);
      expect(res.status).toBe(200);
      expect(res.json.id).toBe(id);
    });
  });

  describe('GET /ext/usage', () => {
    it("answers the Usage record of CONTRACT §2 for the key's account", async () => {
      const res = await get('/ext/usage', keyOf(door.sandbox, 'read:usage'));
      expect(res.status).toBe(200);
      const u = res.json;
      expect(Object.keys(u).sort()).toEqual([
        'account_id',
        'balance_usd',
        'cost_usd',
        'limits',
        'period_end',
        'period_start',
        'plan',
        'requests',
        'tasks',
        'tokens',
      ]);
      expect(u).toMatchObject({
        account_id: 'acc_demo',
        plan: 'pro',
        balance_usd: 50,
        cost_usd: 0,
        limits: { rpm: 300, tpm: 150_000 },
      });
      expect(u.period_start).toBe('2026-01-01T00:00:00.000Z');
      expect(u.period_end).toBe('2026-02-01T00:00:00.000Z');
      expect(u.tokens).toEqual({ input: 0, output: 0, total: 0 });
      expect(u.tasks).toEqual({ queued: 0, running: 0, completed: 0, failed: 0 });
      expect(Object.keys(u.requests).sort()).toEqual(['by_endpoint', 'total']);
    });

    it('shows each account its own plan, limits and balance', async () => {
      const free = (await get('/ext/usage', keyOf(door.sandbox, 'admin', 'acc_free'))).json;
      expect(free).toMatchObject({
        account_id: 'acc_free',
        plan: 'free',
        balance_usd: 0,
        limits: { rpm: 10, tpm: 10_000 },
      });
      const ent = (await get('/ext/usage', keyOf(door.sandbox, 'admin', 'acc_enterprise'))).json;
      expect(ent).toMatchObject({
        account_id: 'acc_enterprise',
        plan: 'enterprise',
        balance_usd: 200,
        limits: { rpm: 1000, tpm: 500_000 },
      });
    });

    it("counts requests per endpoint, this one included; other accounts' requests are not counted", async () => {
      const { sandbox } = door;
      const admin = keyOf(sandbox);
      const agent = sandbox.snapshot().agents[0]!.id;
      for (let i = 0; i < 3; i++) await get('/ext/agents', admin);
      await get(`/ext/agents/${agent}`, admin);
      await get('/ext/agents/agt_doesnotexist0000', admin);
      await get('/ext/tasks/task_doesnotexist000', admin);
      await get('/ext/usage', keyOf(sandbox, 'read:agents'));
      await get('/ext/nothing', admin);
      await get('/ext/agents', keyOf(sandbox, 'admin', 'acc_free'));
      await door.call('GET', '/ext/agents');
      const u = (await get('/ext/usage', admin)).json;
      expect(u.requests.by_endpoint).toEqual({
        'GET /ext/agents': 3,
        'GET /ext/agents/:id': 2,
        'POST /ext/tasks': 0,
        'GET /ext/tasks/:id': 1,
        'GET /ext/usage': 2,
      });
      expect(u.requests.total).toBe(9);
    });
  });
});
