import { describe, expect, it } from 'vitest';
import { api, createTask, manualSandbox, receiver, verify } from './helpers.js';

describe('task events: each move once, in order, when the clock reaches it', () => {
  it('task.created at creation; task.started and task.completed only when clock.advance reaches them', async () => {
    const sandbox = manualSandbox();
    const r = receiver();
    sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
    const task = createTask(sandbox);
    await sandbox.webhooks.flush();
    expect(r.types()).toEqual(['task.created']);
    sandbox.clock.advance(999);
    await sandbox.webhooks.flush();
    expect(r.types()).toEqual(['task.created']);
    sandbox.clock.advance(1); // queued 1 s
    await sandbox.webhooks.flush();
    expect(r.types()).toEqual(['task.created', 'task.started']);
    sandbox.clock.advance('10s');
    await sandbox.webhooks.flush();
    expect(r.types()).toEqual(['task.created', 'task.started', 'task.completed']);
    const final = api(sandbox, 'GET', `/ext/tasks/${task.id}`).json;
    expect(r.received.map((m) => m.event.created_at)).toEqual([final.created_at, final.started_at, final.completed_at]);
  });

  it('emits every event exactly once, in order per task, however the clock moves and whatever reads the tasks', async () => {
    const sandbox = manualSandbox();
    const r = receiver();
    sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      ids.push(createTask(sandbox, 'acc_demo', { priority: (['low', 'normal', 'high', 'urgent'] as const)[i % 4] }).id);
      sandbox.clock.advance(700);
      api(sandbox, 'GET', `/ext/tasks/${ids[0]}`); // a read settles too
      await sandbox.webhooks.flush();
      await sandbox.webhooks.flush();
    }
    sandbox.clock.advance('1m');
    sandbox.clock.advance('1m');
    sandbox.tasks.list();
    await sandbox.webhooks.flush();
    for (const id of ids) {
      expect(
        r.received.filter((m) => (m.event.data as { task: { id: string } }).task.id === id).map((m) => m.event.type),
      ).toEqual(['task.created', 'task.started', 'task.completed']);
    }
    expect(new Set(r.received.map((m) => m.headers['webhook-id'])).size).toBe(r.received.length);
    // Across tasks, messages leave in the sandbox-time order of the moves.
    const times = r.received.map((m) => Date.parse(m.event.created_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('a forced outcome sends the moves it makes: task.started then task.failed', async () => {
    const sandbox = manualSandbox();
    const r = receiver();
    sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
    const task = createTask(sandbox);
    sandbox.tasks.fail(task.id, { code: 'agent_crashed', message: 'The agent crashed.' });
    sandbox.clock.advance('1m');
    await sandbox.webhooks.flush();
    expect(r.types()).toEqual(['task.created', 'task.started', 'task.failed']);
    expect(r.received[2]!.event.data).toMatchObject({ task: { status: 'failed', error: { code: 'agent_crashed' } } });
  });

  it('sends task.failed for tasks of the failing-tasks scenario', async () => {
    const sandbox = manualSandbox({ scenarios: ['failing-tasks'] });
    const r = receiver();
    sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
    createTask(sandbox);
    sandbox.clock.advance('1m');
    await sandbox.webhooks.flush();
    expect(r.types()).toEqual(['task.created', 'task.started', 'task.failed']);
  });

  it("sends an account's events to each of its endpoints (same webhook-id) and to no other account's", async () => {
    const sandbox = manualSandbox();
    const one = receiver();
    const two = receiver();
    const enterprise = receiver();
    const a = sandbox.webhooks.add({ accountId: 'acc_demo', callback: one.callback });
    const b = sandbox.webhooks.add({ accountId: 'acc_demo', callback: two.callback });
    sandbox.webhooks.add({ accountId: 'acc_enterprise', callback: enterprise.callback });
    createTask(sandbox);
    await sandbox.webhooks.flush();
    expect(one.types()).toEqual(['task.created']);
    expect(two.types()).toEqual(['task.created']);
    expect(enterprise.received).toHaveLength(0);
    expect(one.received[0]!.headers['webhook-id']).toBe(two.received[0]!.headers['webhook-id']);
    verify(a.secret, one.received[0]!);
    verify(b.secret, two.received[0]!);
    createTask(sandbox, 'acc_enterprise');
    await sandbox.webhooks.flush();
    expect(enterprise.types()).toEqual(['task.created']);
    expect(one.received).toHaveLength(1);
  });

  it('an endpoint gets the events after it was added, none from before', async () => {
    const sandbox = manualSandbox();
    createTask(sandbox);
    const r = receiver();
    sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
    sandbox.clock.advance('1m');
    await sandbox.webhooks.flush();
    expect(r.types()).toEqual(['task.started', 'task.completed']);
  });

  it('sends nothing while the account is on a plan without webhooks', async () => {
    const sandbox = manualSandbox();
    const r = receiver();
    sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
    sandbox.accounts.update('acc_demo', { plan: 'starter' });
    createTask(sandbox);
    sandbox.clock.advance('1m');
    await sandbox.webhooks.flush();
    expect(r.received).toHaveLength(0);
    expect(sandbox.webhooks.deliveries()).toHaveLength(0);
  });
});

describe('credits.low', () => {
  it('is sent once when a charge leaves the balance under the threshold, and again only after it was back above', async () => {
    const sandbox = manualSandbox({ webhooks: { lowBalanceUsd: 49.99 } });
    const r = receiver();
    const { secret } = sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
    createTask(sandbox);
    createTask(sandbox);
    sandbox.clock.advance('1m');
    await sandbox.webhooks.flush();
    const low = r.received.filter((m) => m.event.type === 'credits.low');
    expect(low).toHaveLength(1);
    const payload = verify(secret, low[0]!);
    expect(payload.data.threshold_usd).toBe(49.99);
    expect(payload.data.account).toMatchObject({ id: 'acc_demo', plan: 'pro' });
    expect(payload.data.account.balance_usd).toBeLessThan(49.99);
    // It follows the completion that caused it.
    const completedAt = r.received.filter((m) => m.event.type === 'task.completed').map((m) => m.event.created_at);
    expect(completedAt).toContain(payload.created_at);
    expect(r.types().indexOf('credits.low')).toBeGreaterThan(r.types().indexOf('task.completed'));

    sandbox.accounts.update('acc_demo', { balanceUsd: 100 });
    sandbox.accounts.update('acc_demo', { balanceUsd: 10 });
    await sandbox.webhooks.flush();
    expect(r.types().filter((t) => t === 'credits.low')).toHaveLength(2);
    sandbox.accounts.update('acc_demo', { balanceUsd: 5 });
    await sandbox.webhooks.flush();
    expect(r.types().filter((t) => t === 'credits.low')).toHaveLength(2);
  });

  it('uses $5 by default', async () => {
    const sandbox = manualSandbox();
    const r = receiver();
    sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
    sandbox.accounts.update('acc_demo', { balanceUsd: 5 });
    await sandbox.webhooks.flush();
    expect(r.received).toHaveLength(0);
    sandbox.accounts.update('acc_demo', { balanceUsd: 4.99 });
    await sandbox.webhooks.flush();
    expect(r.types()).toEqual(['credits.low']);
    expect(r.received[0]!.event.data).toMatchObject({ threshold_usd: 5, account: { balance_usd: 4.99 } });
  });
});

describe('reset()', () => {
  it('drops endpoints and deliveries made since, and brings back those of the options with the same secrets', async () => {
    const first = receiver();
    const sandbox = manualSandbox({ webhooks: { endpoints: [{ accountId: 'acc_demo', callback: first.callback }] } });
    const [initial] = sandbox.webhooks.list();
    sandbox.webhooks.add({ accountId: 'acc_enterprise', url: 'https://receiver.test/hook' });
    createTask(sandbox);
    await sandbox.webhooks.flush();
    expect(sandbox.webhooks.deliveries()).toHaveLength(1);
    sandbox.reset();
    expect(sandbox.webhooks.list()).toEqual([initial]);
    expect(sandbox.webhooks.deliveries()).toEqual([]);
    createTask(sandbox);
    await sandbox.webhooks.flush();
    expect(first.received.map((m) => m.headers['webhook-id'])).toEqual([
      first.received[0]!.headers['webhook-id'],
      first.received[0]!.headers['webhook-id'],
    ]);
  });

  it('endpoints of the options without accountId go to every account whose plan has webhooks, with one secret', () => {
    const sandbox = manualSandbox({ webhooks: { endpoints: [{ url: 'http://127.0.0.1:9/hook' }] } });
    const hooks = sandbox.webhooks.list();
    expect(hooks.map((h) => h.accountId)).toEqual(['acc_demo', 'acc_enterprise', 'acc_magic']);
    expect(hooks[0]!.secret).toBe(hooks[1]!.secret);
  });
});
