import { WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { SandboxError, SCENARIO_NAMES } from '../../src/index.js';
import { createTask, manualSandbox, receiver, verify, verifyingEndpoint } from './helpers.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');

describe('"Webhooks are listed as a feature of the Pro plan": Pro and Enterprise accounts only', () => {
  it.each(['acc_demo', 'acc_enterprise'])('%s (Pro / Enterprise) may add an endpoint', (accountId) => {
    const sandbox = manualSandbox();
    expect(sandbox.webhooks.add({ accountId, url: 'https://receiver.test/hook' })).toMatchObject({
      accountId,
      url: 'https://receiver.test/hook',
      secret: expect.stringMatching(/^whsec_/),
    });
    expect(sandbox.webhooks.list(accountId)).toHaveLength(1);
  });

  it.each([
    ['acc_free', 'Free'],
    ['acc_starter', 'Starter'],
  ])('%s gets an error that names the plan rule', (accountId, plan) => {
    const sandbox = manualSandbox();
    const attempt = () => sandbox.webhooks.add({ accountId, url: 'https://receiver.test/hook' });
    expect(attempt).toThrow(SandboxError);
    expect(attempt).toThrow(
      `Webhooks are a feature of the Pro and Enterprise plans; account '${accountId}' is on the ${plan} plan.`,
    );
    expect(sandbox.webhooks.list()).toEqual([]);
  });

  it('refuses an unknown account, a bad url, and neither or both of url and callback', () => {
    const sandbox = manualSandbox();
    expect(() => sandbox.webhooks.add({ accountId: 'acc_nope', url: 'https://receiver.test/hook' })).toThrow(
      "No account 'acc_nope'.",
    );
    for (const url of ['receiver.test/hook', 'ftp://receiver.test/hook', 'javascript:alert(1)']) {
      expect(() => sandbox.webhooks.add({ accountId: 'acc_demo', url })).toThrow(
        'url: must be an absolute http or https URL',
      );
    }
    expect(() => sandbox.webhooks.add({ accountId: 'acc_demo' })).toThrow('either a url or a callback');
    expect(() =>
      sandbox.webhooks.add({ accountId: 'acc_demo', url: 'https://receiver.test/hook', callback: () => {} }),
    ).toThrow('either a url or a callback');
    expect(sandbox.webhooks.list()).toEqual([]);
  });

  it('an upgraded account may add endpoints; options asking for one on a Free account fail at creation', () => {
    const sandbox = manualSandbox();
    sandbox.accounts.update('acc_free', { plan: 'pro' });
    expect(sandbox.webhooks.add({ accountId: 'acc_free', url: 'https://receiver.test/hook' }).accountId).toBe(
      'acc_free',
    );
    expect(() =>
      manualSandbox({ webhooks: { endpoints: [{ accountId: 'acc_free', url: 'https://receiver.test/hook' }] } }),
    ).toThrow('Webhooks are a feature of the Pro and Enterprise plans');
  });
});

describe('webhook scenarios', () => {
  it('are in the catalogue', () => {
    expect(SCENARIO_NAMES).toEqual(
      expect.arrayContaining(['webhook-delays', 'webhook-duplicates', 'webhook-bad-signature']),
    );
  });

  it('webhook-delays: first attempts leave only when the clock reaches the delay (option ms)', async () => {
    const sandbox = manualSandbox({ scenarios: [{ name: 'webhook-delays', options: { ms: 30_000 } }] });
    const r = receiver();
    sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
    createTask(sandbox);
    sandbox.clock.advance('29999ms');
    await sandbox.webhooks.flush();
    expect(r.received).toHaveLength(0);
    expect(sandbox.webhooks.deliveries()[0]).toMatchObject({
      status: 'pending',
      nextAttemptAt: new Date(T0 + 30_000).toISOString(),
      attempts: [],
    });
    sandbox.clock.advance(1);
    await sandbox.webhooks.flush();
    expect(r.types()).toEqual(['task.created']);
    sandbox.clock.advance('1m');
    await sandbox.webhooks.flush();
    expect(r.types()).toEqual(['task.created', 'task.started', 'task.completed']);
    // created_at is still the time of the move, not of the delivery.
    expect(r.received[0]!.event.created_at).toBe(new Date(T0).toISOString());
    expect(sandbox.webhooks.deliveries()[0]!.attempts[0]!.at).toBe(new Date(T0 + 30_000).toISOString());
  });

  it('webhook-delays with jitter is seeded: the same seed gives the same order', async () => {
    const run = async () => {
      const sandbox = manualSandbox({
        scenarios: [{ name: 'webhook-delays', options: { ms: 1000, jitterMs: 20_000 } }],
      });
      const r = receiver();
      sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
      for (let i = 0; i < 5; i++) createTask(sandbox);
      sandbox.clock.advance('1m');
      await sandbox.webhooks.flush();
      return r.received.map((m) => m.event.id);
    };
    const order = await run();
    expect(order).toHaveLength(15);
    expect(await run()).toEqual(order);
  });

  it('webhook-duplicates: the same webhook-id is delivered twice, both verify; receivers must deduplicate', async () => {
    const sandbox = manualSandbox();
    const r = receiver();
    const { secret } = sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
    const undo = sandbox.useScenario('webhook-duplicates');
    createTask(sandbox);
    await sandbox.webhooks.flush();
    expect(r.received).toHaveLength(2);
    expect(r.received[1]!.headers['webhook-id']).toBe(r.received[0]!.headers['webhook-id']);
    expect(verify(secret, r.received[1]!)).toEqual(verify(secret, r.received[0]!));
    expect(sandbox.webhooks.deliveries()[0]!.attempts.map((a) => a.duplicate)).toEqual([false, true]);
    undo();
    sandbox.clock.advance('1s');
    await sandbox.webhooks.flush();
    expect(r.types()).toEqual(['task.created', 'task.created', 'task.started']);
  });

  it('webhook-bad-signature: the signature does not verify, so a receiver rejects it and the sandbox retries', async () => {
    const sandbox = manualSandbox();
    const seen = verifyingEndpoint(sandbox);
    const undo = sandbox.useScenario('webhook-bad-signature', { accountId: 'acc_demo' });
    createTask(sandbox);
    await sandbox.webhooks.flush();
    expect(seen[0]).toBeInstanceOf(WebhookVerificationError);
    expect(sandbox.webhooks.deliveries()[0]).toMatchObject({ status: 'pending', attempts: [{ status: 401 }] });
    undo();
    // A replay after the scenario is undone is signed right.
    const replayed = await sandbox.webhooks.replay(sandbox.webhooks.deliveries()[0]!.id);
    expect(replayed.attempts[0]!.status).toBe(200);
    expect(seen[1]).toMatchObject({ type: 'task.created' });
  });

  it('a scenario scoped to an account changes only its webhooks', async () => {
    const sandbox = manualSandbox();
    const demo = receiver();
    const enterprise = receiver();
    sandbox.webhooks.add({ accountId: 'acc_demo', callback: demo.callback });
    sandbox.webhooks.add({ accountId: 'acc_enterprise', callback: enterprise.callback });
    sandbox.useScenario('webhook-duplicates', { accountId: 'acc_enterprise' });
    createTask(sandbox);
    createTask(sandbox, 'acc_enterprise');
    await sandbox.webhooks.flush();
    expect(demo.received).toHaveLength(1);
    expect(enterprise.received).toHaveLength(2);
  });
});
