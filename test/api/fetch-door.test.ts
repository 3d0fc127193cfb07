/** `sandbox.fetch`: a standard fetch answered by the core, with no msw interception and no global patching. */
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { keyOf } from '../support/doors.js';

const BASE = 'https://api.example.com/api/v1';

describe('sandbox.fetch', () => {
  it('answers string, URL and Request inputs without touching globalThis.fetch', async () => {
    const before = globalThis.fetch;
    const sandbox = createSandbox({ clock: 'manual' });
    const headers = { Authorization: `Bearer ${keyOf(sandbox)}` };
    const byString = await sandbox.fetch(`${BASE}/ext/agents?limit=2`, { headers });
    const byUrl = await sandbox.fetch(new URL(`${BASE}/ext/agents?limit=2`), { headers });
    const byRequest = await sandbox.fetch(new Request(`${BASE}/ext/agents?limit=2`, { headers }));
    expect(byString.status).toBe(200);
    const text = await byString.text();
    expect(JSON.parse(text).data).toHaveLength(2);
    expect(await byUrl.text()).toBe(text);
    expect(await byRequest.text()).toBe(text);
    expect(byString.headers.get('x-ratelimit-limit')).not.toBeNull();
    expect(globalThis.fetch).toBe(before);
  });

  it('creates a task from a POST with a JSON body (string, or a Request with a stream body)', async () => {
    const sandbox = createSandbox({ clock: 'manual' });
    const headers = { Authorization: `Bearer ${keyOf(sandbox)}`, 'Content-Type': 'application/json' };
    const agent = sandbox.snapshot().agents[0]!.id;
    const body = JSON.stringify({ agent_id: agent, description: 'Hello' });
    const a = await sandbox.fetch(`${BASE}/ext/tasks`, { method: 'POST', headers, body });
    const b = await sandbox.fetch(
      new Request(`${BASE}/ext/tasks`, { method: 'POST', headers, body: new Blob([body]) }),
    );
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.headers.get('location')).toMatch(/^\/api\/v1\/ext\/tasks\/task_/);
    sandbox.clock.advance('30s');
    const done = await (await sandbox.fetch(`${BASE}/ext/tasks/${(await b.json()).id}`, { headers })).json();
    expect(done.status).toBe('completed');
  });

  it('the error shape for a missing key; a URL outside the base URL rejects with a TypeError', async () => {
    const sandbox = createSandbox({ baseUrl: BASE });
    const res = await sandbox.fetch(`${BASE}/ext/agents`);
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe('missing_api_key');
    await expect(sandbox.fetch('https://elsewhere.example/api/v1/ext/agents')).rejects.toThrow(TypeError);
  });

  it('the network-error scenario rejects as a failed fetch does; an aborted signal rejects with AbortError', async () => {
    const sandbox = createSandbox();
    await expect(
      sandbox.fetch(`${BASE}/ext/agents`, { headers: { Authorization: 'Bearer ak_magic_network_error' } }),
    ).rejects.toThrow(TypeError);
    const controller = new AbortController();
    controller.abort();
    await expect(sandbox.fetch(`${BASE}/ext/agents`, { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('HEAD answers with no body', async () => {
    const sandbox = createSandbox();
    const res = await sandbox.fetch(`${BASE}/ext/agents`, {
      method: 'HEAD',
      headers: { Authorization: `Bearer ${keyOf(sandbox)}` },
    });
    expect(await res.text()).toBe('');
  });

  it('builds its Response with the platform class, not through a patched globalThis.Response (msw setupServer listening)', async () => {
    const sandbox = createSandbox({ clock: 'manual' });
    const init = { headers: { Authorization: `Bearer ${keyOf(sandbox)}` } };
    const before = await (await sandbox.fetch(`${BASE}/ext/agents`, init)).text();
    // msw's node interceptors swap globalThis.Response for a Proxy that records raw headers on every construction.
    const server = setupServer();
    server.listen({ onUnhandledRequest: 'error' });
    const patched = globalThis.Response;
    let built = 0;
    globalThis.Response = new Proxy(patched, {
      construct: (target, args, newTarget) => ((built += 1), Reflect.construct(target, args, newTarget)),
    });
    try {
      expect(globalThis.Response).not.toBe(Response.prototype.constructor);
      const res = await sandbox.fetch(`${BASE}/ext/agents`, init);
      expect(res).toBeInstanceOf(globalThis.Response);
      expect(res).toBeInstanceOf(patched);
      expect(await res.text()).toBe(before);
      expect(built).toBe(0);
    } finally {
      globalThis.Response = patched;
      server.close();
    }
    expect(globalThis.Response).toBe(Response.prototype.constructor);
  });

  it('reads a Request given alone as it is (no copy), and uses up its body as fetch does', async () => {
    const sandbox = createSandbox({ clock: 'manual' });
    const headers = { Authorization: `Bearer ${keyOf(sandbox)}`, 'Content-Type': 'application/json' };
    const agent = sandbox.snapshot().agents[0]!.id;
    const request = new Request(`${BASE}/ext/tasks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ agent_id: agent, description: 'Hello' }),
    });
    const original = globalThis.Request;
    let built = 0;
    globalThis.Request = new Proxy(original, {
      construct: (target, args, newTarget) => ((built += 1), Reflect.construct(target, args, newTarget)),
    });
    try {
      expect((await sandbox.fetch(request)).status).toBe(201);
    } finally {
      globalThis.Request = original;
    }
    expect(built).toBe(0);
    expect(request.bodyUsed).toBe(true);
    await expect(sandbox.fetch(request)).rejects.toThrow(TypeError);
    // With init beside it, the Request is combined with the init, as fetch does.
    const get = new Request(`${BASE}/ext/agents?limit=1`);
    const res = await sandbox.fetch(get, { headers: { Authorization: headers.Authorization } });
    expect(res.status).toBe(200);
  });
});
