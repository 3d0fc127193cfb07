/** agent-work-sandbox/vitest: setupSandbox wires listen / reset / close into the runner's hooks. */
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setupSandbox } from '../src/vitest.js';

const { sandbox, server } = setupSandbox({
  clock: 'manual',
  hooks: { beforeAll, afterEach, afterAll },
  handlers: [http.get('https://status.example.test/health', () => HttpResponse.json({ ok: true }))],
});
const admin = () => sandbox.keys.list('acc_demo').find((k) => k.label === 'admin')!.key;
const agents = () => fetch('https://api.example.test/api/v1/ext/agents', { headers: { Authorization: `Bearer ${admin()}` } });

describe('setupSandbox', () => {
  it('serves the sandbox to fetch once the file starts (beforeAll → listen)', async () => {
    sandbox.useScenario('rate-limited');
    sandbox.keys.create({ scopes: ['read:agents'] });
    server.use(http.get('https://api.example.test/api/v1/ext/usage', () => HttpResponse.json({ overridden: true })));
    expect((await agents()).status).toBe(429);
    expect(sandbox.requests).toHaveLength(1);
  });

  it('resets after each test (afterEach → resetHandlers + sandbox.reset): scenario, keys, journal, overrides gone', async () => {
    expect((await agents()).status).toBe(200);
    expect(sandbox.requests).toHaveLength(1);
    expect(sandbox.keys.list('acc_demo')).toHaveLength(7);
    const usage = await fetch('https://api.example.test/api/v1/ext/usage', { headers: { Authorization: `Bearer ${admin()}` } });
    expect((await usage.json()).account_id).toBe('acc_demo');
  });

  it('serves the extra handlers given to it', async () => {
    expect(await (await fetch('https://status.example.test/health')).json()).toEqual({ ok: true });
  });

  it("refuses a request no handler serves (onUnhandledRequest: 'error')", async () => {
    await expect(fetch('https://elsewhere.example.test/')).rejects.toThrow();
  });

  it('without hooks and without runner globals, says how to pass them', () => {
    expect(() => setupSandbox()).toThrow(/hooks: \{ beforeAll, afterEach, afterAll \}/);
  });
});
