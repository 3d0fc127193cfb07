import { WebhookVerificationError } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCENARIO_NAMES } from '../../src/index.js';
import { auditMatchers } from '../../src/matchers.js';
import { createTask, manualSandbox, receiver, verify, verifyingEndpoint } from './helpers.js';
import { startReceiver } from './receiver.js';
import { served, type Served } from './served.js';

expect.extend(auditMatchers);

describe('webhook-stale-timestamp and the handler audit on live deliveries', () => {
  it('is in the catalogue beside the other webhook scenarios', () => {
    expect(SCENARIO_NAMES).toEqual(
      expect.arrayContaining([
        'webhook-delays',
        'webhook-duplicates',
        'webhook-bad-signature',
        'webhook-stale-timestamp',
      ]),
    );
  });

  it('webhook-stale-timestamp: a valid signature over a timestamp ten minutes old; a verifying receiver rejects it', async () => {
    const sandbox = manualSandbox();
    const seen = verifyingEndpoint(sandbox);
    sandbox.useScenario('webhook-stale-timestamp', { accountId: 'acc_demo' });
    createTask(sandbox);
    await sandbox.webhooks.flush();
    expect(seen[0]).toBeInstanceOf(WebhookVerificationError);
    const [delivery] = sandbox.webhooks.deliveries();
    expect(delivery).toMatchObject({ status: 'pending', attempts: [{ status: 401 }] });
    const sent = Number(delivery!.attempts[0]!.headers['webhook-timestamp']);
    expect(Date.now() / 1000 - sent).toBeGreaterThan(590);
    expect(Date.now() / 1000 - sent).toBeLessThan(660);
    expect(sandbox).toHaveCleanAudit();
  });

  it('a receiver that answers 2xx under webhook-stale-timestamp or webhook-bad-signature is an audit finding', async () => {
    const sandbox = manualSandbox();
    const r = receiver([200]);
    sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
    sandbox.useScenario('webhook-stale-timestamp', { accountId: 'acc_demo' });
    createTask(sandbox);
    await sandbox.webhooks.flush();
    sandbox.clearScenarios();
    sandbox.useScenario('webhook-bad-signature', { accountId: 'acc_demo' });
    createTask(sandbox);
    await sandbox.webhooks.flush();
    const ids = r.received.map((m) => m.headers['webhook-id']);
    expect(sandbox.audit()).toEqual([
      expect.objectContaining({ rule: 'handler-accepts-bad-signature', count: 1, first_request_id: ids[1] }),
      expect.objectContaining({ rule: 'handler-accepts-stale-timestamp', count: 1, first_request_id: ids[0] }),
    ]);
    sandbox.reset();
    expect(sandbox.audit()).toEqual([]);
  });

  it('deliveries keep the headers sent: the Standard Webhooks three, never the secret', async () => {
    const sandbox = manualSandbox();
    const r = receiver();
    const { secret } = sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
    createTask(sandbox);
    await sandbox.webhooks.flush();
    const [attempt] = sandbox.webhooks.deliveries()[0]!.attempts;
    expect(attempt!.headers).toEqual(r.received[0]!.headers);
    expect(Object.keys(attempt!.headers)).toEqual(
      expect.arrayContaining(['webhook-id', 'webhook-timestamp', 'webhook-signature']),
    );
    expect(JSON.stringify(sandbox.webhooks.deliveries())).not.toContain(secret.slice(6));
  });

  it('the headers sent survive a snapshot and restore', async () => {
    const hook = await startReceiver([204]);
    try {
      const sandbox = manualSandbox();
      sandbox.webhooks.add({ accountId: 'acc_demo', url: hook.url });
      createTask(sandbox);
      await sandbox.webhooks.flush();
      const copy = manualSandbox();
      copy.restore(JSON.parse(JSON.stringify(sandbox.snapshot())));
      expect(copy.webhooks.deliveries()[0]!.attempts[0]!.headers).toEqual(
        sandbox.webhooks.deliveries()[0]!.attempts[0]!.headers,
      );
      expect(copy.webhooks.deliveries()[0]!.attempts[0]!.headers['webhook-id']).toMatch(/^evt_/);
    } finally {
      await hook.close();
    }
  });

  it('webhooks.trigger() sends an event from the current state to the account endpoints', async () => {
    const sandbox = manualSandbox();
    const r = receiver();
    sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
    const task = createTask(sandbox);
    await sandbox.webhooks.flush();
    const [sent] = await sandbox.webhooks.trigger('task.completed', { taskId: task.id });
    expect(sent).toMatchObject({ status: 'succeeded', eventType: 'task.completed' });
    expect(r.received.at(-1)!.event.data).toMatchObject({ task: { id: task.id } });
  });
});

describe('control API: POST /__sandbox/webhooks/trigger', () => {
  let s: Served;
  beforeAll(async () => {
    s = await served([204]);
  });
  afterAll(() => s.close());
  const post = (path: string, body: unknown) => s.req('POST', path, body);

  it('sends the event to the endpoints and answers { data: deliveries } with the headers sent', async () => {
    const { json: endpoint } = await post('/accounts/acc_demo/webhooks', { url: s.hook.url });
    const res = await post('/webhooks/trigger', { type: 'credits.low', account_id: 'acc_demo' });
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(1);
    expect(res.json.data[0].attempts[0].headers['webhook-id']).toBe(res.json.data[0].event.id);
    expect(verify(endpoint.secret, s.hook.received.at(-1)!)).toMatchObject({ type: 'credits.low' });
  });

  it('an unknown type, task or field is a 400/404 in the error shape, and sends nothing', async () => {
    const before = s.hook.received.length;
    for (const [body, status] of [
      [{ type: 'task.exploded' }, 400],
      [{ type: 'task.created', task_id: 'task_nope' }, 404],
      [{ type: 'task.created', taskId: 'x' }, 400],
      [{ type: 'credits.low', account_id: 'acc_demo', overrides: { nope: 1 } }, 400],
    ] as const) {
      const res = await post('/webhooks/trigger', body);
      expect(res.status).toBe(status);
      expect(Object.keys(res.json.error)).toEqual(['code', 'message']);
    }
    expect(s.hook.received.length).toBe(before);
  });
});
