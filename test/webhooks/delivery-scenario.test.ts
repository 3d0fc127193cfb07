/**
 * "Deliveries show ... the scenario that failed them": a delivery names the webhook scenario in force when it was
 * queued (`scenario`, in the library and the control API), and says null when none was: no scenario of the API, of
 * a key or of another account is named on it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTask, manualSandbox, receiver } from './helpers.js';
import { startReceiver } from './receiver.js';
import { served, type Served } from './served.js';

const WEBHOOK_SCENARIOS = [
  'webhook-delays',
  'webhook-duplicates',
  'webhook-bad-signature',
  'webhook-stale-timestamp',
] as const;

describe('a delivery names the webhook scenario that spoiled it', () => {
  it.each(WEBHOOK_SCENARIOS)('%s on the account: each delivery names it', async (name) => {
    const sandbox = manualSandbox();
    sandbox.webhooks.add({ accountId: 'acc_demo', callback: receiver([400]).callback });
    sandbox.useScenario(name, { accountId: 'acc_demo' });
    createTask(sandbox);
    sandbox.clock.advance('1m');
    await sandbox.webhooks.flush();
    const deliveries = sandbox.webhooks.deliveries();
    expect(deliveries.length).toBeGreaterThan(0);
    for (const d of deliveries) expect(d.scenario).toBe(name);
  });

  it('a careful run with no scenario: every delivery says null', async () => {
    const sandbox = manualSandbox();
    const r = receiver([500, 200]);
    sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
    createTask(sandbox);
    sandbox.clock.advance('1m');
    await sandbox.webhooks.flush();
    await sandbox.webhooks.test({ accountId: 'acc_demo' });
    const deliveries = sandbox.webhooks.deliveries();
    expect(deliveries.length).toBeGreaterThanOrEqual(4);
    // A failed attempt the receiver chose (500) is not a scenario's doing.
    expect(deliveries[0]!.attempts.map((a) => a.status)).toEqual([500, 200]);
    for (const d of deliveries) expect(d.scenario).toBeNull();
  });

  it('a scenario of the API, of a key or of another account is not named on a delivery', async () => {
    const sandbox = manualSandbox();
    sandbox.webhooks.add({ accountId: 'acc_demo', callback: receiver().callback });
    sandbox.useScenario('latency', { accountId: 'acc_demo', ms: 0 });
    sandbox.useScenario('webhook-duplicates', { accountId: 'acc_enterprise' });
    const key = sandbox.keys.list('acc_demo').find((k) => k.label === 'admin')!;
    sandbox.useScenario('webhook-bad-signature', { keyId: key.id });
    createTask(sandbox);
    await sandbox.webhooks.flush();
    const [d] = sandbox.webhooks.deliveries();
    expect(d).toMatchObject({ status: 'succeeded', scenario: null });
    expect(d!.attempts.map((a) => a.duplicate)).toEqual([false]);
  });

  it('two in force are both named, once each, in the order applied; a replay after they end says null', async () => {
    const sandbox = manualSandbox();
    sandbox.webhooks.add({ accountId: 'acc_demo', callback: receiver().callback });
    const undo = [
      sandbox.useScenario('webhook-duplicates'),
      sandbox.useScenario('webhook-stale-timestamp', { accountId: 'acc_demo' }),
      sandbox.useScenario('webhook-duplicates', { accountId: 'acc_demo' }),
    ];
    createTask(sandbox);
    await sandbox.webhooks.flush();
    const [d] = sandbox.webhooks.deliveries();
    expect(d!.scenario).toBe('webhook-duplicates, webhook-stale-timestamp');
    for (const u of undo) u();
    expect((await sandbox.webhooks.replay(d!.id)).scenario).toBeNull();
    expect(sandbox.webhooks.deliveries()[0]!.scenario).toBe('webhook-duplicates, webhook-stale-timestamp');
  });

  it('test(), trigger() and replay() name the scenario in force when they send', async () => {
    const sandbox = manualSandbox();
    sandbox.webhooks.add({ accountId: 'acc_demo', callback: receiver().callback });
    const task = createTask(sandbox);
    await sandbox.webhooks.flush();
    sandbox.useScenario('webhook-bad-signature');
    const [tested] = await sandbox.webhooks.test({ accountId: 'acc_demo' });
    const [triggered] = await sandbox.webhooks.trigger('task.completed', { taskId: task.id });
    const replayed = await sandbox.webhooks.replay(sandbox.webhooks.deliveries()[0]!.id);
    expect([tested!.scenario, triggered!.scenario, replayed.scenario]).toEqual([
      'webhook-bad-signature',
      'webhook-bad-signature',
      'webhook-bad-signature',
    ]);
  });

  it('survives a snapshot and restore; a state file without it loads with null', async () => {
    const hook = await startReceiver([204]);
    try {
      const sandbox = manualSandbox();
      sandbox.webhooks.add({ accountId: 'acc_demo', url: hook.url });
      sandbox.useScenario('webhook-duplicates', { accountId: 'acc_demo' });
      createTask(sandbox);
      await sandbox.webhooks.flush();
      const saved = JSON.parse(JSON.stringify(sandbox.snapshot()));
      const copy = manualSandbox();
      copy.restore(saved);
      expect(copy.webhooks.deliveries()[0]!.scenario).toBe('webhook-duplicates');
      for (const d of saved.webhooks.deliveries) delete d.scenario;
      copy.restore(saved);
      expect(copy.webhooks.deliveries()[0]).toMatchObject({ status: 'succeeded', scenario: null });
    } finally {
      await hook.close();
    }
  });
});

describe('control API: a delivery shows scenario in its answer', () => {
  let s: Served;
  beforeAll(async () => {
    s = await served([204]);
  });
  afterAll(() => s.close());

  it("GET /__sandbox/webhooks/deliveries and the inspector read: the scenario's name, or null", async () => {
    const { json: endpoint } = await s.req('POST', '/accounts/acc_demo/webhooks', { url: s.hook.url });
    expect((await s.req('POST', '/webhooks/test', { endpoint_id: endpoint.id })).status).toBe(200);
    expect((await s.req('POST', '/scenarios', { name: 'webhook-bad-signature', account_id: 'acc_demo' })).status).toBe(
      204,
    );
    expect((await s.req('POST', '/webhooks/test', { endpoint_id: endpoint.id })).json.data).toEqual([
      expect.objectContaining({ scenario: 'webhook-bad-signature' }),
    ]);
    const listed = (await s.req('GET', '/webhooks/deliveries')).json.data;
    expect(listed.map((d: { scenario: string | null }) => d.scenario)).toEqual([null, 'webhook-bad-signature']);
    const live = (await s.req('GET', '/inspector/live')).json;
    expect(live.deliveries.map((d: { scenario: string | null }) => d.scenario)).toEqual([
      'webhook-bad-signature',
      null,
    ]);
  });
});
