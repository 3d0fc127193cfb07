// A consumer's Jest suite (CommonJS, `require`), run from the packed tarball by test/consumer.test.ts.
const axios = require('axios');
const { ERRORS, SCENARIO_NAMES } = require('agent-work-sandbox');
const { setupSandbox } = require('agent-work-sandbox/testing');
const { version: mswVersion } = require('msw/package.json');
const { withRealServer } = require('../unmocked.cjs');

const BASE = 'https://api.agent-work.example/api/v1';
// Jest's hooks are globals: no need to pass them.
const { sandbox } = setupSandbox({ clock: 'manual' });
const auth = () => ({ Authorization: `Bearer ${sandbox.keys.list('acc_demo').find((k) => k.label === 'admin').key}` });

describe('agent-work-sandbox from the tarball, Jest + CommonJS', () => {
  test('lists agents with fetch', async () => {
    const res = await fetch(`${BASE}/ext/agents?limit=2`, { headers: auth() });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toHaveLength(2);
  });

  test('axios gets 402 under out-of-credits, in the error shape', async () => {
    sandbox.useScenario('out-of-credits');
    const agents = await axios.get(`${BASE}/ext/agents`, { headers: auth() });
    const error = await axios
      .post(`${BASE}/ext/tasks`, { agent_id: agents.data.data[0].id, description: 'Hi' }, { headers: auth() })
      .catch((e) => e);
    expect(error.response.status).toBe(ERRORS.insufficient_credits.status);
    expect(error.response.data).toEqual({ error: { code: 'insufficient_credits', message: expect.any(String) } });
  });

  test('the scenario is gone after the previous test; a task completes on the manual clock', async () => {
    const agents = await axios.get(`${BASE}/ext/agents`, { headers: auth() });
    const created = await axios.post(
      `${BASE}/ext/tasks`,
      { agent_id: agents.data.data[0].id, description: 'Hi' },
      { headers: auth() },
    );
    expect(created.status).toBe(201);
    sandbox.clock.advance('10m');
    expect((await axios.get(`${BASE}/ext/tasks/${created.data.id}`, { headers: auth() })).data.status).toBe(
      'completed',
    );
    expect(sandbox.findRequests({ method: 'POST', status: 201 })).toHaveLength(1);
  });

  test('the X-Sandbox-Scenario header and the magic keys reach a case per request', async () => {
    const res = await fetch(`${BASE}/ext/agents`, { headers: { ...auth(), 'X-Sandbox-Scenario': 'server-error' } });
    expect(res.status).toBe(500);
    const magic = await axios
      .get(`${BASE}/ext/agents`, { headers: { Authorization: 'Bearer ak_magic_revoked_key' } })
      .catch((e) => e);
    expect(magic.response.status).toBe(401);
    expect(SCENARIO_NAMES).toContain('network-error');
  });

  test('agent-work-sandbox/fetch answers through sandbox.fetch, without msw handlers', async () => {
    const { createSandbox } = require('agent-work-sandbox/fetch');
    const plain = createSandbox({ clock: 'manual' });
    const key = plain.keys.list('acc_demo').find((k) => k.label === 'admin').key;
    const res = await plain.fetch(`${BASE}/ext/agents?limit=2`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toHaveLength(2);
    expect('handlers' in plain).toBe(false);
  });

  test('the fixture sets and their JSON Schema are reachable through exports', () => {
    expect(require('agent-work-sandbox/fixtures/fixture-set.schema.json').type).toBe('object');
    expect(require('agent-work-sandbox/fixtures/marketplace.json').agents.length).toBeGreaterThan(0);
  });

  test(`an unmocked request fails the test (msw ${mswVersion})`, async () => {
    await withRealServer(async (url) => {
      await expect(fetch(url)).rejects.toThrow();
    });
  });
});
