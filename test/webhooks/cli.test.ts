import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCli, UsageError } from '../../src/cli/args.js';
import { startReceiver } from './receiver.js';
import { verify } from './helpers.js';
import { startCliWithWebhook } from './cli-process.js';

let stop: (() => Promise<void>) | undefined;
let hook: Awaited<ReturnType<typeof startReceiver>>;
let base: string;

beforeAll(async () => {
  hook = await startReceiver();
  ({ origin: base, stop } = await startCliWithWebhook(hook.url));
}, 60_000);

afterAll(async () => {
  await stop?.();
  await hook?.close();
});

describe('CLI --webhook URL', () => {
  it('parses, repeatable, and refuses what is not an http(s) URL', () => {
    expect(parseCli(['--webhook', 'http://127.0.0.1:9/a', '--webhook', 'https://x.test/b']).webhooks).toEqual([
      'http://127.0.0.1:9/a',
      'https://x.test/b',
    ]);
    expect(parseCli([]).webhooks).toEqual([]);
    expect(() => parseCli(['--webhook', 'not a url'])).toThrow(UsageError);
  });

  it('registers the URL for the fixture accounts that may have webhooks (Pro, Enterprise), with one secret', async () => {
    const hooks = (await (await fetch(`${base}/__sandbox/webhooks`)).json()).data;
    expect(hooks.map((h: { account_id: string; url: string }) => [h.account_id, h.url])).toEqual([
      ['acc_demo', hook.url],
      ['acc_enterprise', hook.url],
      ['acc_magic', hook.url],
    ]);
    expect(hooks[0].secret).toBe(hooks[1].secret);
  });

  it('a receiver on 127.0.0.1 gets the signed task events over a real socket, in order', async () => {
    const [{ secret }] = (await (await fetch(`${base}/__sandbox/accounts/acc_demo/webhooks`)).json()).data;
    const keys = (await (await fetch(`${base}/__sandbox/keys`)).json()).data;
    const key = keys.find(
      (k: { account_id: string; scopes: string[] }) => k.account_id === 'acc_demo' && k.scopes.includes('admin'),
    ).key;
    const auth = { Authorization: `Bearer ${key}` };
    const agents = await (await fetch(`${base}/api/v1/ext/agents`, { headers: auth })).json();
    const res = await fetch(`${base}/api/v1/ext/tasks`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        agent_id: agents.data.find((a: { status: string }) => a.status === 'available').id,
        description: 'Write a haiku.',
      }),
    });
    expect(res.status).toBe(201);
    const task = await res.json();
    await hook.count(1);
    // Real clock: moving it forward through the control API settles the moves, and their events leave at once.
    await fetch(`${base}/__sandbox/clock`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ advance: '1m' }),
    });
    await hook.count(3);
    const events = hook.received.map((m) => verify(secret, m));
    expect(events.map((e) => e.type)).toEqual(['task.created', 'task.started', 'task.completed']);
    for (const e of events) expect(e.data.task.id).toBe(task.id);
    expect(hook.received.every((m) => m.path === '/hook' && m.headers['content-type'] === 'application/json')).toBe(
      true,
    );
    const deliveries = (await (await fetch(`${base}/__sandbox/webhooks/deliveries?account_id=acc_demo`)).json()).data;
    expect(deliveries.map((d: { status: string }) => d.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
  });
});
