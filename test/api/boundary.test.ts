/**
 * In-process, each createSandbox() is independent, and its handlers work under msw's `server.boundary()`:
 * concurrent tests each serve their own sandbox from one msw server and never see each other's scenarios.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSandbox, type ScenarioName } from '../../src/index.js';
import { keyOf } from '../support/doors.js';

const shared = createSandbox({ clock: 'manual' });
const server = setupServer(...shared.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const URL = 'https://api.example.test/api/v1';
const get = (key: string, path = '/ext/agents') =>
  fetch(`${URL}${path}`, { headers: { Authorization: `Bearer ${key}` } });

it.concurrent('two boundaries serve two sandboxes with opposite scenarios, concurrently', async () => {
  const run = (scenario: ScenarioName, expected: number) =>
    server.boundary(async () => {
      const sandbox = createSandbox({ clock: 'manual', scenarios: [scenario] });
      server.use(...sandbox.handlers);
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        statuses.push((await get(keyOf(sandbox))).status);
        await new Promise((r) => setImmediate(r)); // let the other boundary interleave
      }
      expect(statuses).toEqual(Array(10).fill(expected));
      expect(sandbox.requests).toHaveLength(10);
      expect(shared.requests).toHaveLength(0);
    })();
  await Promise.all([run('rate-limited', 429), run('empty-catalog', 200)]);
});

it('an override in a boundary stays in it; the sandbox answers outside', async () => {
  await server.boundary(async () => {
    server.use(http.get('*/api/v1/ext/usage', () => HttpResponse.json({ overridden: true })));
    expect(await (await get(keyOf(shared), '/ext/usage')).json()).toEqual({ overridden: true });
  })();
  const res = await get(keyOf(shared), '/ext/usage');
  expect((await res.json()).account_id).toBe('acc_demo');
});

it('two sandboxes share nothing: state, scenarios, journal', () => {
  const a = createSandbox({ clock: 'manual' });
  const b = createSandbox({ clock: 'manual' });
  a.useScenario('unavailable');
  a.accounts.create({ plan: 'free' });
  const call = (s: typeof a) =>
    s.handle({
      method: 'GET',
      path: '/ext/agents',
      query: '',
      header: (n) => (n === 'authorization' ? `Bearer ${keyOf(s)}` : undefined),
      body: '',
      clientId: 't',
    });
  expect(call(a).status).toBe(503);
  expect(call(b).status).toBe(200);
  expect(b.accounts.list()).toHaveLength(a.accounts.list().length - 1);
  expect(b.requests).toHaveLength(1);
});
