/**
 * Issue 14, item 5: webhooks cannot hurt the sandbox. URLs of the sandbox's own control API or inspector are refused
 * (when added, and at each attempt), its messages carry a User-Agent the control API refuses, and a flush is bounded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/index.js';
import { httpCall } from '../server/cli-server.js';

let sandbox: Sandbox;
let origin: string;
let port: number;
let close: () => Promise<void>;

beforeAll(async () => {
  sandbox = createSandbox({ clock: 'manual' });
  const running = await sandbox.listen({ port: 0 });
  origin = running.url;
  port = running.port;
  close = running.close;
});
afterAll(() => close());

describe("the sandbox's own control API and inspector as a webhook URL", () => {
  const own = () => [
    `${origin}/__sandbox/reset`,
    `http://localhost:${port}/__sandbox/webhooks/test`,
    `http://[::1]:${port}/__SANDBOX/reset`,
    `http://0.0.0.0:${port}/__sandbox/`,
    `http://127.0.0.2:${port}/api/v1/../__sandbox/state`,
  ];

  it('is refused by the control API with a clear 400, and nothing is registered', async () => {
    for (const url of own()) {
      const res = await httpCall(origin, 'POST', '/__sandbox/accounts/acc_demo/webhooks', { body: { url } });
      expect(res.status, url).toBe(400);
      expect((res.json as { error: { message: string } }).error.message).toMatch(/this sandbox's own server/);
    }
    expect(sandbox.webhooks.list('acc_demo')).toEqual([]);
  });

  it('is refused by the library too', () => {
    for (const url of own())
      expect(() => sandbox.webhooks.add({ accountId: 'acc_demo', url }), url).toThrow(/own server/);
  });

  it("lets through the sandbox's API paths and other ports", () => {
    const api = sandbox.webhooks.add({ accountId: 'acc_demo', url: `${origin}/api/v1/hooks` });
    const other = sandbox.webhooks.add({
      accountId: 'acc_demo',
      url: `http://127.0.0.1:${port === 65535 ? 1 : port + 1}/__sandbox/reset`,
    });
    sandbox.webhooks.remove(api.id);
    sandbox.webhooks.remove(other.id);
  });

  it("another sandbox's webhook pointed at this control API is refused there (403 by User-Agent): nothing is reset", async () => {
    const minted = sandbox.keys.create({ scopes: ['admin'] });
    const other = createSandbox({
      clock: 'manual',
      webhooks: { maxAttempts: 1, endpoints: [{ accountId: 'acc_demo', url: `${origin}/__sandbox/reset` }] },
    });
    const [delivery] = await other.webhooks.test({ accountId: 'acc_demo' });
    expect(delivery!.attempts[0]!.status).toBe(403);
    expect(sandbox.keys.list().some((k) => k.id === minted.id)).toBe(true);
  });

  it('checks again at each attempt: an endpoint of the served listener itself is not sent', async () => {
    const own = createSandbox({ clock: 'manual', webhooks: { maxAttempts: 1 } });
    const minted = own.keys.create({ scopes: ['admin'] });
    // Added before listening (so not refused when added), pointing at the port it will get.
    const probe = await own.listen({ port: 0 });
    const target = `${probe.url}/__sandbox/reset`;
    await probe.close();
    own.webhooks.add({ accountId: 'acc_demo', url: target });
    const served = await own.listen({ port: probe.port });
    try {
      const [delivery] = await own.webhooks.test({ accountId: 'acc_demo' });
      expect(delivery!.status).toBe('failed');
      expect(delivery!.attempts[0]!.error).toMatch(/^Not sent: .*own server/);
      expect(own.keys.list().some((k) => k.id === minted.id)).toBe(true);
    } finally {
      await served.close();
    }
  });
});

describe('deliveries are marked', () => {
  it('carry User-Agent: agent-work-sandbox-webhooks, which the control API refuses (403)', async () => {
    const seen: string[] = [];
    const endpoint = sandbox.webhooks.add({
      accountId: 'acc_demo',
      callback: (r) => void seen.push(r.headers['user-agent']!),
    });
    await sandbox.webhooks.test({ endpointId: endpoint.id });
    sandbox.webhooks.remove(endpoint.id);
    expect(seen).toEqual(['agent-work-sandbox-webhooks']);
    const res = await httpCall(origin, 'POST', '/__sandbox/reset', {
      headers: { 'user-agent': 'agent-work-sandbox-webhooks' },
    });
    expect(res.status).toBe(403);
  });
});

describe('a bounded flush', () => {
  it('returns after flushTimeoutMs however slow the receiver (each attempt has its own timeout too)', async () => {
    const slow = createSandbox({ clock: 'manual', webhooks: { timeoutMs: 60_000, flushTimeoutMs: 200 } });
    let release: () => void = () => {};
    slow.webhooks.add({ accountId: 'acc_demo', callback: () => new Promise<void>((r) => (release = r)) });
    const t0 = performance.now();
    const [delivery] = await slow.webhooks.test({ accountId: 'acc_demo' });
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(delivery!.status).toBe('pending');
    release();
  });

  it('refuses a flushTimeoutMs that is not a positive number', () => {
    expect(() => createSandbox({ webhooks: { flushTimeoutMs: 0 } })).toThrow(/flushTimeoutMs/);
  });
});
