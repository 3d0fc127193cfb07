import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { WebhookVerificationError } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxError } from '../../src/index.js';
import { api, createTask, manualSandbox, receiver, verify } from './helpers.js';

describe('Standard Webhooks signatures', () => {
  it('gives each endpoint a "whsec_" secret: base64 of 24 bytes, the same for the same seed', () => {
    const a = manualSandbox().webhooks.add({ accountId: 'acc_demo', url: 'https://receiver.test/hook' });
    const b = manualSandbox().webhooks.add({ accountId: 'acc_demo', url: 'https://receiver.test/hook' });
    expect(a.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(a.secret.slice(6), 'base64')).toHaveLength(24);
    expect(b).toEqual(a);
    expect(
      manualSandbox({ seed: 2 }).webhooks.add({ accountId: 'acc_demo', url: 'https://receiver.test/hook' }).secret,
    ).not.toBe(a.secret);
  });

  it('sends webhook-id, webhook-timestamp and webhook-signature that the standardwebhooks package verifies', async () => {
    const sandbox = manualSandbox();
    const r = receiver();
    const { secret } = sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
    const task = createTask(sandbox);
    sandbox.clock.advance('30s');
    await sandbox.webhooks.flush();
    expect(r.types()).toEqual(['task.created', 'task.started', 'task.completed']);
    for (const message of r.received) {
      expect(message.headers['webhook-id']).toBe(message.event.id);
      expect(message.headers['webhook-timestamp']).toMatch(/^\d+$/);
      expect(Math.abs(Number(message.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      expect(message.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      expect(message.headers['content-type']).toBe('application/json');
      expect(verify(secret, message)).toEqual(JSON.parse(message.body));
    }
    const completed = verify(secret, r.received[2]!);
    expect(Object.keys(completed)).toEqual(['id', 'type', 'created_at', 'data']);
    expect(completed.id).toMatch(/^evt_[0-9a-z]{16}$/);
    expect(completed.data.task).toEqual(api(sandbox, 'GET', `/ext/tasks/${task.id}`).json);
    expect(completed.created_at).toBe(completed.data.task.completed_at);
  });

  it('a signature does not verify with another secret, nor over a changed body', async () => {
    const sandbox = manualSandbox();
    const r = receiver();
    const { secret } = sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
    const other = sandbox.webhooks.add({ accountId: 'acc_demo', url: 'https://other.test/hook' });
    sandbox.webhooks.remove(other.id);
    createTask(sandbox);
    await sandbox.webhooks.flush();
    const message = r.received[0]!;
    expect(() => verify(other.secret, message)).toThrow(WebhookVerificationError);
    expect(() => verify(secret, { ...message, body: message.body.replace('queued', 'running') })).toThrow(
      WebhookVerificationError,
    );
  });

  it('accepts a secret of your own, and refuses one that is not "whsec_" + base64 of 24 to 64 bytes', async () => {
    const sandbox = manualSandbox();
    const mine = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const r = receiver();
    expect(sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback, secret: mine }).secret).toBe(mine);
    createTask(sandbox);
    await sandbox.webhooks.flush();
    expect(verify(mine, r.received[0]!).type).toBe('task.created');
    for (const bad of ['secret', 'whsec_', `whsec_${Buffer.alloc(8).toString('base64')}`, 'whsec_not base64!']) {
      expect(() =>
        sandbox.webhooks.add({ accountId: 'acc_demo', url: 'https://receiver.test/hook', secret: bad }),
      ).toThrow(SandboxError);
    }
  });
});

describe('in-process delivery through fetch', () => {
  let close = () => {};
  afterEach(() => close());

  it("a consumer's msw handler receives the POST, beside the sandbox's own handlers", async () => {
    const sandbox = manualSandbox();
    const got: { headers: Record<string, string>; body: string }[] = [];
    const server = setupServer(
      ...sandbox.handlers,
      http.post('https://receiver.test/hook', async ({ request }) => {
        got.push({ headers: Object.fromEntries(request.headers), body: await request.text() });
        return new HttpResponse(null, { status: 204 });
      }),
    );
    server.listen({ onUnhandledRequest: 'error' });
    close = () => server.close();
    const { secret } = sandbox.webhooks.add({ accountId: 'acc_demo', url: 'https://receiver.test/hook' });
    const key = sandbox.keys.list('acc_demo').find((k) => k.label === 'admin')!.key;
    const agents = await (
      await fetch('https://agent-work.test/api/v1/ext/agents', { headers: { Authorization: `Bearer ${key}` } })
    ).json();
    const res = await fetch('https://agent-work.test/api/v1/ext/tasks', {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        agent_id: agents.data.find((a: { status: string }) => a.status === 'available').id,
        description: 'Translate this.',
      }),
    });
    expect(res.status).toBe(201);
    await sandbox.webhooks.flush();
    expect(got).toHaveLength(1);
    expect(verify(secret, got[0]!)).toMatchObject({ type: 'task.created', data: { task: await res.json() } });
    const [delivery] = sandbox.webhooks.deliveries();
    expect(delivery).toMatchObject({
      status: 'succeeded',
      url: 'https://receiver.test/hook',
      attempts: [{ status: 204, error: null, duplicate: false }],
    });
  });

  it('a network error is a failed attempt with the error, not a crash', async () => {
    const sandbox = manualSandbox();
    const server = setupServer(
      ...sandbox.handlers,
      http.post('https://nobody.test/hook', () => HttpResponse.error()),
    );
    server.listen({ onUnhandledRequest: 'error' });
    close = () => server.close();
    sandbox.webhooks.add({ accountId: 'acc_demo', url: 'https://nobody.test/hook' });
    createTask(sandbox);
    await sandbox.webhooks.flush();
    const [delivery] = sandbox.webhooks.deliveries();
    expect(delivery!.status).toBe('pending');
    expect(delivery!.attempts).toEqual([expect.objectContaining({ status: null, error: expect.any(String) })]);
    expect(delivery!.nextAttemptAt).not.toBeNull();
  });
});
