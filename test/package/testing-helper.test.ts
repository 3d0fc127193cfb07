/** agent-work-sandbox/testing (alias agent-work-sandbox/vitest): setupSandbox wires listen / reset / close into the runner's hooks. */
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MSW_MAJOR, setupSandbox, unhandledOption } from '../../src/testing.js';

const { sandbox, server } = setupSandbox({
  clock: 'manual',
  hooks: { beforeAll, afterEach, afterAll },
  handlers: [http.get('https://status.example.test/health', () => HttpResponse.json({ ok: true }))],
});
const admin = () => sandbox.keys.list('acc_demo').find((k) => k.label === 'admin')!.key;
const agents = () =>
  fetch('https://api.example.test/api/v1/ext/agents', { headers: { Authorization: `Bearer ${admin()}` } });

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
    const usage = await fetch('https://api.example.test/api/v1/ext/usage', {
      headers: { Authorization: `Bearer ${admin()}` },
    });
    expect((await usage.json()).account_id).toBe('acc_demo');
  });

  it('serves the extra handlers given to it', async () => {
    expect(await (await fetch('https://status.example.test/health')).json()).toEqual({ ok: true });
  });

  it(`refuses a request no handler serves, even one a real server would answer (msw ${MSW_MAJOR})`, async () => {
    const real = createServer((req, res) => res.end('reached the network'));
    await new Promise<void>((resolve) => real.listen(0, '127.0.0.1', resolve));
    try {
      await expect(fetch(`http://127.0.0.1:${(real.address() as AddressInfo).port}/`)).rejects.toThrow();
    } finally {
      real.closeAllConnections();
      await new Promise((resolve) => real.close(resolve));
    }
  });

  it('passes the unhandled-request option under the name of the installed msw major', () => {
    expect(unhandledOption('error', 2)).toEqual({ onUnhandledRequest: 'error' });
    expect(unhandledOption('warn', 3)).toEqual({ onUnhandledFrame: 'warn' });
    expect(MSW_MAJOR).toBe(Number(process.env.EXPECT_MSW_MAJOR ?? 2));
  });

  it('without hooks and without runner globals, says how to pass them', () => {
    expect(() => setupSandbox()).toThrow(/hooks: \{ beforeAll, afterEach, afterAll \}/);
  });
});
