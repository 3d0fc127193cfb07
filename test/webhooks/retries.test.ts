import { describe, expect, it } from 'vitest';
import { createSandbox, retryDelay, SandboxError } from '../../src/index.js';
import { createTask, manualSandbox, receiver, verify } from './helpers.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const iso = (t: number) => new Date(t).toISOString();

describe('retries with backoff on the sandbox clock', () => {
  it('a non-2xx answer is retried after the seeded backoff, and the retry leaves exactly when the clock reaches it', async () => {
    const sandbox = manualSandbox();
    const r = receiver([500, 503, 200]);
    const { secret } = sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
    createTask(sandbox);
    await sandbox.webhooks.flush();
    let [d] = sandbox.webhooks.deliveries();
    const first = retryDelay(1, d!.id, 1, 5000);
    expect(first).toBeGreaterThanOrEqual(5000);
    expect(first).toBeLessThanOrEqual(6000);
    expect(d).toMatchObject({
      status: 'pending',
      attempts: [{ at: iso(T0), status: 500 }],
      nextAttemptAt: iso(T0 + first),
    });

    const createdAttempts = () => r.received.filter((m) => m.headers['webhook-id'] === d!.eventId).length;
    sandbox.clock.set(T0 + first - 1);
    await sandbox.webhooks.flush();
    expect(createdAttempts()).toBe(1);
    sandbox.clock.advance(1);
    await sandbox.webhooks.flush();
    expect(createdAttempts()).toBe(2);
    const second = retryDelay(1, d!.id, 2, 5000);
    expect(second).toBeGreaterThanOrEqual(10_000);
    expect(second).toBeLessThanOrEqual(12_000);
    [d] = sandbox.webhooks.deliveries({ eventId: d!.eventId });
    expect(d!.nextAttemptAt).toBe(iso(T0 + first + second));

    sandbox.clock.set(T0 + first + second);
    await sandbox.webhooks.flush();
    [d] = sandbox.webhooks.deliveries({ eventId: d!.eventId });
    expect(d!.status).toBe('succeeded');
    expect(d!.nextAttemptAt).toBeNull();
    expect(d!.attempts.map((a) => [a.at, a.status])).toEqual([
      [iso(T0), 500],
      [iso(T0 + first), 503],
      [iso(T0 + first + second), 200],
    ]);
    for (const a of d!.attempts) expect(a.latencyMs).toBeGreaterThanOrEqual(0);
    // Every attempt carries the same webhook-id, each signed anew.
    expect(createdAttempts()).toBe(3);
    for (const m of r.received) verify(secret, m);
  });

  it('gives up after maxAttempts (default 5) and marks the delivery failed', async () => {
    const sandbox = manualSandbox();
    const r = receiver([500]);
    sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
    createTask(sandbox, 'acc_demo');
    sandbox.clock.advance('1h'); // one jump: attempts run at their due times, one after another
    await sandbox.webhooks.flush();
    const all = sandbox.webhooks.deliveries();
    expect(all.map((d) => d.eventType)).toEqual(['task.created', 'task.started', 'task.completed']);
    for (const d of all) {
      expect(d.status).toBe('failed');
      expect(d.attempts).toHaveLength(5);
      expect(d.nextAttemptAt).toBeNull();
      const times = d.attempts.map((a) => Date.parse(a.at));
      const waits = times.slice(1).map((t, i) => t - times[i]!);
      expect(waits).toEqual([1, 2, 3, 4].map((n) => retryDelay(1, d.id, n, 5000)));
    }
    expect(r.received).toHaveLength(15);
    sandbox.clock.advance('10h');
    await sandbox.webhooks.flush();
    expect(r.received).toHaveLength(15);
    expect(sandbox.webhooks.deliveries({ status: 'failed' })).toHaveLength(3);
  });

  it('the backoff is seeded: the same seed gives the same schedule; options set attempts and base', async () => {
    const schedule = async (seed: number) => {
      const sandbox = manualSandbox({ seed, webhooks: { maxAttempts: 3, retryBaseMs: 1000 } });
      sandbox.webhooks.add({ accountId: 'acc_demo', callback: () => 500 });
      createTask(sandbox);
      sandbox.clock.advance('1s');
      await sandbox.webhooks.flush();
      sandbox.clock.advance('1m');
      await sandbox.webhooks.flush();
      return sandbox.webhooks.deliveries().map((d) => d.attempts.map((a) => a.at));
    };
    const a = await schedule(7);
    expect(a[0]).toHaveLength(3);
    expect(await schedule(7)).toEqual(a);
    expect(await schedule(8)).not.toEqual(a);
  });

  it('a callback that throws, a timeout or a refused connection is a failed attempt with its error', async () => {
    const sandbox = manualSandbox({ webhooks: { timeoutMs: 50 } });
    sandbox.webhooks.add({
      accountId: 'acc_demo',
      callback: () => {
        throw new Error('receiver exploded');
      },
    });
    sandbox.webhooks.add({ accountId: 'acc_demo', callback: () => new Promise(() => {}) });
    sandbox.webhooks.add({ accountId: 'acc_demo', url: 'http://127.0.0.1:9/hook' }); // discard port: refused
    createTask(sandbox);
    await sandbox.webhooks.flush();
    const [thrown, hung, refused] = sandbox.webhooks.deliveries();
    expect(thrown!.attempts[0]).toMatchObject({ status: null, error: 'receiver exploded' });
    expect(refused!.attempts[0]).toMatchObject({
      status: null,
      error: expect.stringMatching(/fetch failed|ECONNREFUSED/),
    });
    expect(hung!.attempts[0]).toMatchObject({ status: null, error: 'No answer within 50 ms.' });
    for (const d of [thrown, hung, refused])
      expect(d).toMatchObject({ status: 'pending', nextAttemptAt: expect.any(String) });
  });

  it('under a real clock, a timer sends due task events and retries without anyone calling flush', async () => {
    const sandbox = createSandbox({
      taskTimings: { queuedMs: 20, runningMinMs: 20, runningMaxMs: 40 },
      webhooks: { retryBaseMs: 30 },
    });
    const seen: string[] = [];
    const done = new Promise<void>((resolve) => {
      let calls = 0;
      sandbox.webhooks.add({
        accountId: 'acc_demo',
        callback: (m) => {
          calls += 1;
          seen.push(`${m.event.type}:${calls}`);
          if (calls === 4) resolve();
          return calls === 1 ? 500 : 200; // the first attempt fails and is retried by the timer
        },
      });
    });
    createTask(sandbox);
    await done;
    await sandbox.webhooks.flush(); // the last attempt is recorded once the callback has answered
    expect(seen[0]).toBe('task.created:1');
    expect(seen.map((s) => s.split(':')[0]).sort()).toEqual([
      'task.completed',
      'task.created',
      'task.created',
      'task.started',
    ]);
    expect(sandbox.webhooks.deliveries().map((d) => [d.eventType, d.status, d.attempts.length])).toEqual([
      ['task.created', 'succeeded', 2],
      ['task.started', 'succeeded', 1],
      ['task.completed', 'succeeded', 1],
    ]);
  });
});

describe('replay and test events', () => {
  it('replay sends the same message again (same webhook-id, fresh signature) and journals it as a new delivery', async () => {
    const sandbox = manualSandbox();
    const r = receiver();
    const { secret } = sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
    createTask(sandbox);
    await sandbox.webhooks.flush();
    const [original] = sandbox.webhooks.deliveries();
    const again = await sandbox.webhooks.replay(original!.id);
    expect(again).toMatchObject({
      replayOf: original!.id,
      eventId: original!.eventId,
      status: 'succeeded',
      attempts: [{ status: 200 }],
    });
    expect(again.id).not.toBe(original!.id);
    expect(r.received).toHaveLength(2);
    expect(r.received[1]!.body).toBe(r.received[0]!.body);
    expect(r.received[1]!.headers['webhook-id']).toBe(r.received[0]!.headers['webhook-id']);
    verify(secret, r.received[1]!);
    await expect(sandbox.webhooks.replay('dlv_nope')).rejects.toThrow(SandboxError);
  });

  it('test() sends a signed sample event of each type to check a receiver', async () => {
    const sandbox = manualSandbox();
    const r = receiver();
    const { id, secret } = sandbox.webhooks.add({ accountId: 'acc_enterprise', callback: r.callback });
    const [sent] = await sandbox.webhooks.test({ endpointId: id });
    expect(sent).toMatchObject({ eventType: 'task.completed', status: 'succeeded' });
    expect(verify(secret, r.received[0]!)).toMatchObject({
      type: 'task.completed',
      data: { task: { status: 'completed' } },
    });
    await sandbox.webhooks.test({ endpointId: id, type: 'credits.low' });
    expect(verify(secret, r.received[1]!)).toMatchObject({
      type: 'credits.low',
      data: { account: { id: 'acc_enterprise' } },
    });
    await expect(sandbox.webhooks.test({ type: 'task.exploded' as never })).rejects.toThrow(SandboxError);
    await expect(sandbox.webhooks.test({ endpointId: 'ep_nope' })).rejects.toThrow(SandboxError);
  });

  it('removing an endpoint fails its pending deliveries and stops its retries', async () => {
    const sandbox = manualSandbox();
    const r = receiver([500]);
    const { id } = sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
    createTask(sandbox);
    await sandbox.webhooks.flush();
    sandbox.webhooks.remove(id);
    sandbox.clock.advance('1h');
    await sandbox.webhooks.flush();
    expect(r.received).toHaveLength(1);
    expect(sandbox.webhooks.deliveries().map((d) => d.status)).toEqual(['failed']);
    expect(() => sandbox.webhooks.remove(id)).toThrow(SandboxError);
  });
});

describe('the delivery journal and lanes', () => {
  it('keeps the newest deliveriesKept finished deliveries', async () => {
    const sandbox = manualSandbox({ webhooks: { deliveriesKept: 2 } });
    sandbox.webhooks.add({ accountId: 'acc_demo', callback: () => 200 });
    createTask(sandbox);
    sandbox.clock.advance('1m');
    await sandbox.webhooks.flush();
    expect(sandbox.webhooks.deliveries().map((d) => d.eventType)).toEqual(['task.started', 'task.completed']);
  });

  it('a slow endpoint does not hold up another one', async () => {
    const sandbox = manualSandbox();
    let release = () => {};
    const slow = new Promise<void>((resolve) => (release = resolve));
    const fast = receiver();
    sandbox.webhooks.add({ accountId: 'acc_demo', callback: () => slow });
    sandbox.webhooks.add({ accountId: 'acc_demo', callback: fast.callback });
    createTask(sandbox);
    const flushed = sandbox.webhooks.flush();
    await new Promise<void>((resolve) => {
      const check = () => (fast.received.length > 0 ? resolve() : setImmediate(check));
      check();
    });
    expect(sandbox.webhooks.deliveries().map((d) => d.status)).toEqual(['pending', 'succeeded']);
    release();
    await flushed;
    expect(sandbox.webhooks.deliveries().map((d) => d.status)).toEqual(['succeeded', 'succeeded']);
  });
});
