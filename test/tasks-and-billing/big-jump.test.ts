/**
 * A long idle and a big clock jump: a sandbox whose clock jumps (one `clock.advance` settles every move that fell
 * due, in bulk) leaves, byte for byte, the books of the same sandbox moved one second at a time (each move settled on
 * its own): `GET /ext/usage`, `GET /ext/tasks/:id`, the control API's account view, the webhook messages and their
 * order, across month ends (the month's usage resets, unfinished tasks carry over) and the retention bound.
 */
import { describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/index.js';
import { ADMIN, OPTIONS } from './support.js';
import { receiver } from '../webhooks/helpers.js';

const T0 = '2026-01-31T23:58:00.000Z'; // two minutes before a period ends
const DAY = 24 * 3600 * 1000;
const ACCOUNTS = ['acc_pro', 'acc_enterprise'] as const;
const AGENTS = ['agt_alpha', 'agt_bravo', 'agt_charlie', 'agt_fixed'];
const PRIORITIES = ['low', 'normal', 'high', 'urgent'];

type Account = (typeof ACCOUNTS)[number];

function call(sandbox: Sandbox, account: Account, method: string, path: string, body?: unknown) {
  const key = account === 'acc_pro' ? ADMIN.pro : ADMIN.enterprise;
  const res = sandbox.handle({
    method,
    path,
    query: '',
    clientId: 'jump',
    header: (n) => (n === 'authorization' ? `Bearer ${key}` : n === 'content-type' ? 'application/json' : undefined),
    body: body === undefined ? '' : JSON.stringify(body),
  });
  return `${res.status} ${res.body}`;
}

/** Moves the clock by `ms`: at once, or in steps of a second (an hour once the first twelve hours are past). */
function advance(sandbox: Sandbox, ms: number, stepped: boolean) {
  if (!stepped) return void sandbox.clock.advance(ms);
  for (let done = 0; done < ms;) {
    const step = Math.min(ms - done, done < DAY / 2 ? 1000 : 3600 * 1000);
    sandbox.clock.advance(step);
    done += step;
  }
}

/** The same requests and clock moves on a fresh sandbox; what every read answered, and the webhook messages. */
function run(stepped: boolean) {
  const sandbox = createSandbox({ ...OPTIONS, now: T0, taskRetention: 25 });
  const hooks = receiver();
  sandbox.webhooks.add({ accountId: 'acc_enterprise', callback: hooks.callback });
  for (const id of ACCOUNTS)
    sandbox.accounts.update(id, { balanceUsd: 40, limits: { rpm: 1_000_000, tpm: 1_000_000_000 } });
  const ids: { id: string; account: Account }[] = [];
  const reads: string[] = [];
  const readAll = () => {
    for (const t of ids) reads.push(call(sandbox, t.account, 'GET', `/ext/tasks/${t.id}`));
    for (const a of ACCOUNTS)
      reads.push(call(sandbox, a, 'GET', '/ext/usage'), JSON.stringify(sandbox.accounts.get(a)));
  };
  for (let i = 0; i < 60; i++) {
    const account = ACCOUNTS[i % 2]!;
    // Some tasks fail; some run 40× or 1,000× slower, so that their moves land hours later, across the month end.
    if (i % 7 === 3) sandbox.useScenario('failing-tasks', { accountId: account });
    if (i % 5 === 1) sandbox.useScenario('slow-tasks', { accountId: account, factor: i % 2 ? 1000 : 40 });
    const body = { agent_id: AGENTS[i % 4], description: `Task ${i} ${'x'.repeat(i)}`, priority: PRIORITIES[i % 4] };
    const answer = call(sandbox, account, 'POST', '/ext/tasks', body);
    expect(answer.slice(0, 3)).toBe('201');
    ids.push({ id: (JSON.parse(answer.slice(4)) as { id: string }).id, account });
    sandbox.clearScenarios();
    advance(sandbox, 1_700, stepped);
    if (i % 20 === 19) readAll(); // mid-flight: queued, running and ended tasks side by side
  }
  sandbox.tasks.complete(ids[57]!.id, { output: 'forced' });
  sandbox.tasks.fail(ids[58]!.id, { code: 'agent_crashed', message: 'The agent crashed.' });
  advance(sandbox, 40 * DAY, stepped);
  readAll();
  return { sandbox, reads, hooks };
}

describe('a big clock jump settles to the books of one step at a time', () => {
  it('40 days in one jump across two month ends = the same requests moved one second at a time (usage, tasks, accounts)', () => {
    const once = run(false);
    const stepped = run(true);
    expect(once.reads).toEqual(stepped.reads);
    // The jump crossed the month ends: the month's figures started again, the credits of each month were granted.
    const usage = JSON.parse(once.reads.at(-4)!.slice(4)) as { period_start: string; tasks: Record<string, number> };
    expect(usage.period_start).toBe('2026-03-01T00:00:00.000Z');
    expect(usage.tasks).toEqual({ queued: 0, running: 0, completed: 0, failed: 0 });
    const statuses = once.reads.map((r) => /"status":"(\w+)"/.exec(r)?.[1]);
    for (const s of ['queued', 'running', 'completed', 'failed']) expect(statuses).toContain(s);
    // Retention: the 25 kept are the last to finish; the others read 404 in both.
    expect(once.reads.filter((r) => r.startsWith('404')).length).toBeGreaterThan(30);
  });

  it('reads a task mid-flight: running, started_at set, nothing charged yet; then completed and charged', () => {
    const sandbox = createSandbox({ ...OPTIONS, now: T0 });
    const created = call(sandbox, 'acc_pro', 'POST', '/ext/tasks', { agent_id: 'agt_fixed', description: 'Mid' });
    const id = (JSON.parse(created.slice(4)) as { id: string }).id;
    sandbox.clock.advance(1_500);
    const mid = JSON.parse(call(sandbox, 'acc_pro', 'GET', `/ext/tasks/${id}`).slice(4)) as Record<string, unknown>;
    expect(mid).toMatchObject({ status: 'running', result: null, completed_at: null });
    expect(mid.started_at).toBe('2026-01-31T23:58:01.000Z');
    expect(mid.usage).toEqual({ input_tokens: 0, output_tokens: 0, cost_usd: 0 });
    expect(sandbox.accounts.get('acc_pro')!.held_usd).toBeGreaterThan(0);
    sandbox.clock.advance('1m');
    const done = JSON.parse(call(sandbox, 'acc_pro', 'GET', `/ext/tasks/${id}`).slice(4)) as Record<string, unknown>;
    expect(done).toMatchObject({ status: 'completed', started_at: '2026-01-31T23:58:01.000Z' });
    expect((done.usage as { output_tokens: number }).output_tokens).toBe(800);
    expect(sandbox.accounts.get('acc_pro')!.held_usd).toBe(0);
  });

  it('webhooks: the jump sends the same messages in the same order as one second at a time, in time order', async () => {
    const once = run(false);
    const stepped = run(true);
    await once.sandbox.webhooks.flush();
    await stepped.sandbox.webhooks.flush();
    const bodies = (r: typeof once.hooks) => r.received.map((m) => m.body);
    expect(once.hooks.received.length).toBeGreaterThan(60);
    expect(bodies(once.hooks)).toEqual(bodies(stepped.hooks));
    const times = once.hooks.received.map((m) => Date.parse(m.event.created_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
  it('retention after a jump that finishes 10,000 tasks keeps the same tasks, in the same order, as 10 ms steps do', () => {
    // The jump drops 9,900 tasks at once (marked, the rest stored anew); the steps drop a few at a time.
    const make = () => {
      const sandbox = createSandbox({ ...OPTIONS, now: T0, taskRetention: 100 });
      sandbox.accounts.update('acc_enterprise', { balanceUsd: 1000, limits: { rpm: 1_000_000, tpm: 1_000_000_000 } });
      for (let i = 0; i < 10_000; i++) {
        const body = { agent_id: AGENTS[i % 4], description: `Task ${i % 10}`, priority: PRIORITIES[i % 4] };
        expect(call(sandbox, 'acc_enterprise', 'POST', '/ext/tasks', body).slice(0, 3)).toBe('201');
      }
      return sandbox;
    };
    const once = make();
    const stepped = make();
    advance(once, DAY, false);
    // 10 ms at a time for the first two minutes, while the tasks run: a few end, and a few are dropped, at each step.
    for (let ms = 0; ms < 120_000; ms += 10) stepped.clock.advance(10);
    advance(stepped, DAY - 120_000, true);
    const kept = once.tasks.list();
    expect(kept).toHaveLength(100);
    expect(kept).toEqual(stepped.tasks.list());
    expect(once.snapshot()).toEqual(stepped.snapshot());
    // And the next task that finishes drops the kept one that finished first (ties: in the order they were created).
    const first = kept
      .map((t, i) => ({ t, i }))
      .sort((a, b) => Date.parse(a.t.completed_at!) - Date.parse(b.t.completed_at!) || a.i - b.i)[0]!.t;
    call(once, 'acc_enterprise', 'POST', '/ext/tasks', { agent_id: 'agt_fixed', description: 'one more' });
    once.clock.advance('1m');
    const after = once.tasks.list().map((t) => t.id);
    expect(after).toEqual([...kept.filter((t) => t !== first).map((t) => t.id), after.at(-1)]);
    expect(after).not.toContain(first.id);
  });
});
