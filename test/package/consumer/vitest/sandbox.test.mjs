// A consumer's Vitest suite (ESM, `import`), run from the packed tarball by test/consumer.test.ts.
import axios from 'axios';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, ERRORS } from 'agent-work-sandbox';
import { createSandbox as createFetchSandbox } from 'agent-work-sandbox/fetch';
import { setupSandbox } from 'agent-work-sandbox/vitest';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { withRealServer } = require('../unmocked.cjs');
const { version: mswVersion } = require('msw/package.json');

const BASE = 'https://api.agent-work.example/api/v1';
const { sandbox, server } = setupSandbox({ clock: 'manual', hooks: { beforeAll, afterEach, afterAll } });
const admin = () => sandbox.keys.list('acc_demo').find((k) => k.label === 'admin').key;

describe('agent-work-sandbox from the tarball, Vitest + ESM', () => {
  it('lists agents with fetch', async () => {
    const res = await fetch(`${BASE}/ext/agents?limit=3`, { headers: { Authorization: `Bearer ${admin()}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('300');
    expect((await res.json()).data).toHaveLength(3);
  });

  it('creates a task with axios and sees it complete on the manual clock', async () => {
    const agents = await axios.get(`${BASE}/ext/agents`, { headers: { Authorization: `Bearer ${admin()}` } });
    const created = await axios.post(
      `${BASE}/ext/tasks`,
      { agent_id: agents.data.data[0].id, description: 'Hello' },
      { headers: { Authorization: `Bearer ${admin()}` } },
    );
    expect(created.status).toBe(201);
    sandbox.clock.advance('10m');
    const task = await axios.get(`${BASE}/ext/tasks/${created.data.id}`, {
      headers: { Authorization: `Bearer ${admin()}` },
    });
    expect(task.data.status).toBe('completed');
  });

  it('reaches a scenario with useScenario, and axios sees the 429', async () => {
    sandbox.useScenario('rate-limited');
    const error = await axios
      .get(`${BASE}/ext/usage`, { headers: { Authorization: `Bearer ${admin()}` } })
      .catch((e) => e);
    expect(error.response.status).toBe(ERRORS.rate_limit_exceeded.status);
    expect(error.response.headers['retry-after']).toMatch(/^[0-9]+$/);
  });

  it('was reset after the previous test, and magic keys need no setup', async () => {
    expect((await fetch(`${BASE}/ext/usage`, { headers: { Authorization: `Bearer ${admin()}` } })).status).toBe(200);
    const res = await fetch(`${BASE}/ext/usage`, { headers: { Authorization: 'Bearer ak_magic_unavailable' } });
    expect(res.status).toBe(503);
    expect((await res.json()).error.code).toBe('service_unavailable');
  });

  it(`an unmocked request fails the test (msw ${mswVersion})`, async () => {
    await withRealServer(async (url) => {
      await expect(fetch(url)).rejects.toThrow();
    });
  });

  it('network-error makes fetch and axios fail', async () => {
    sandbox.useScenario('network-error');
    await expect(fetch(`${BASE}/ext/agents`, { headers: { Authorization: `Bearer ${admin()}` } })).rejects.toThrow(
      TypeError,
    );
    const error = await axios
      .get(`${BASE}/ext/agents`, { headers: { Authorization: `Bearer ${admin()}` } })
      .catch((e) => e);
    expect(error.response).toBeUndefined();
  });
});

describe('createSandbox from the main entry', () => {
  it('serves a second, independent sandbox through server.use()', async () => {
    const other = createSandbox({ baseUrl: 'https://other.example/api/v1', scenarios: ['empty-catalog'] });
    server.use(...other.handlers);
    const key = other.keys.list('acc_demo')[0].key;
    const res = await fetch('https://other.example/api/v1/ext/agents', { headers: { Authorization: `Bearer ${key}` } });
    expect((await res.json()).data).toEqual([]);
    expect(other.requests).toHaveLength(1);
    expect(sandbox.requests).toHaveLength(0);
  });
});

describe('agent-work-sandbox/fetch (the sandbox without msw)', () => {
  it('answers through sandbox.fetch like the main entry, and has no msw handlers', async () => {
    const plain = createFetchSandbox({ clock: 'manual' });
    const main = createSandbox({ clock: 'manual' });
    const key = plain.keys.list('acc_demo').find((k) => k.label === 'admin').key;
    const ask = (s) => s.fetch(`${BASE}/ext/agents?limit=2`, { headers: { Authorization: `Bearer ${key}` } });
    const [a, b] = [await ask(plain), await ask(main)];
    expect(a.status).toBe(200);
    expect(await a.text()).toBe(await b.text());
    expect('handlers' in plain).toBe(false);
  });
});
