import { describe, expect, it } from 'vitest';
import { handle } from '../../src/core/handle.js';
import { Journal } from '../../src/core/journal.js';
import { createFaker } from '../../src/model/default-fixtures.js';
import { parseFixtureSet } from '../../src/model/fixture-schema.js';
import { stateFromFixtures } from '../../src/model/state.js';
import { periodBounds } from '../../src/rules/period.js';
import { DEFAULT_TASK_TIMINGS } from '../../src/rules/task-progress.js';
import { ActiveScenarios } from '../../src/scenarios/active.js';
import { ADMIN, eachDoor, nano, postTask, taskFixtures } from './support.js';

const usageOf = (door: Parameters<Parameters<typeof eachDoor>[1]>[0], plan: keyof typeof ADMIN) =>
  door.call('GET', '/ext/usage', { key: ADMIN[plan] }).then((r) => r.json);

describe('billing periods: "a plan sets monthly credits"', () => {
  for (const [name, run] of eachDoor(
    "each account's period starts with its plan's monthly credits (Free $0, Starter $10, Pro $50, Enterprise $200); the period is the calendar month (UTC)",
    async (door) => {
      const expected = { free: 0, starter: 10, pro: 50, enterprise: 200 } as const;
      for (const plan of ['free', 'starter', 'pro', 'enterprise'] as const) {
        const usage = await usageOf(door, plan);
        expect(usage.balance_usd).toBe(expected[plan]);
        expect(usage.period_start).toBe('2026-01-01T00:00:00.000Z');
        expect(usage.period_end).toBe('2026-02-01T00:00:00.000Z');
      }
    },
  ))
    it(name, run);

  for (const [name, run] of eachDoor(
    "advancing the clock past the month's end grants the next month's credits (added to the balance) and resets the period's figures",
    async (door) => {
      const task = (await postTask(door, ADMIN.pro, { agent_id: 'agt_fixed', description: 'January work.' })).json;
      door.sandbox.clock.advance('1m');
      const january = await usageOf(door, 'pro');
      expect(january.tasks.completed).toBe(1);
      expect(january.cost_usd).toBeGreaterThan(0);
      expect(january.requests.total).toBe(2);
      const spent = nano(50) - nano(january.balance_usd);
      expect(spent).toBe(
        nano((await door.call('GET', `/ext/tasks/${task.id}`, { key: ADMIN.pro })).json.usage.cost_usd),
      );

      door.sandbox.clock.set('2026-01-31T23:59:59.999Z');
      expect((await usageOf(door, 'pro')).period_start).toBe('2026-01-01T00:00:00.000Z');
      door.sandbox.clock.advance(1);
      const february = await usageOf(door, 'pro');
      expect(february).toEqual({
        account_id: 'acc_pro',
        plan: 'pro',
        period_start: '2026-02-01T00:00:00.000Z',
        period_end: '2026-03-01T00:00:00.000Z',
        balance_usd: (nano(50) - spent + nano(50)) / 1e9,
        requests: {
          total: 1,
          by_endpoint: {
            'GET /ext/agents': 0,
            'GET /ext/agents/:id': 0,
            'POST /ext/tasks': 0,
            'GET /ext/tasks/:id': 0,
            'GET /ext/usage': 1,
          },
        },
        tokens: { input: 0, output: 0, total: 0 },
        cost_usd: 0,
        tasks: { queued: 0, running: 0, completed: 0, failed: 0 },
        limits: { rpm: 300, tpm: 150_000 },
      });
      // Free stays at $0: its monthly credits are $0.
      expect((await usageOf(door, 'free')).balance_usd).toBe(0);
    },
  ))
    it(name, run);

  for (const [name, run] of eachDoor('crossing several boundaries at once grants each month crossed', async (door) => {
    door.sandbox.clock.set('2026-04-15T12:00:00.000Z');
    const usage = await usageOf(door, 'starter');
    expect(usage.period_start).toBe('2026-04-01T00:00:00.000Z');
    expect(usage.period_end).toBe('2026-05-01T00:00:00.000Z');
    expect(usage.balance_usd).toBe(40);
    expect(door.sandbox.accounts.get('acc_enterprise')!.balance_usd).toBe(800);
  }))
    it(name, run);

  for (const [name, run] of eachDoor(
    'a task that runs across the boundary is charged in the period it completes in, and counted there',
    async (door) => {
      door.sandbox.clock.set('2026-01-31T23:59:58.000Z');
      const task = (await postTask(door, ADMIN.pro, { agent_id: 'agt_fixed', description: 'Straddles the month.' }))
        .json;
      const january = await usageOf(door, 'pro');
      expect(january.tasks.queued).toBe(1);
      expect(january.cost_usd).toBe(0);
      door.sandbox.clock.advance('3s');
      // February: the unfinished task is carried over (running now).
      expect((await usageOf(door, 'pro')).tasks).toEqual({ queued: 0, running: 1, completed: 0, failed: 0 });
      door.sandbox.clock.advance('1m');
      const done = (await door.call('GET', `/ext/tasks/${task.id}`, { key: ADMIN.pro })).json;
      expect(done.completed_at.startsWith('2026-02-01')).toBe(true);
      const february = await usageOf(door, 'pro');
      expect(february.tasks).toEqual({ queued: 0, running: 0, completed: 1, failed: 0 });
      expect(february.cost_usd).toBe(done.usage.cost_usd);
      expect(february.tokens).toEqual({
        input: done.usage.input_tokens,
        output: done.usage.output_tokens,
        total: done.usage.input_tokens + done.usage.output_tokens,
      });
      expect(february.balance_usd).toBe((nano(100) - nano(done.usage.cost_usd)) / 1e9);
    },
  ))
    it(name, run);
});

describe('a charge lands in the period it belongs to, even when time passed with no settling (real clock)', () => {
  it("a task that ended before the month's end is charged to that month, not to the next, when the first request after the boundary settles it", () => {
    // A clock that moves without telling anyone, as real time does.
    let now = Date.parse('2026-01-31T23:59:50.000Z');
    const clock = { mode: 'real' as const, now: () => now, advance: () => now, set: () => now };
    const engine = {
      state: stateFromFixtures(parseFixtureSet(taskFixtures()), now, periodBounds(now)),
      seed: 7,
      faker: createFaker(),
      timings: DEFAULT_TASK_TIMINGS,
      clock,
      journal: new Journal(10),
      scenarios: new ActiveScenarios(),
      basePath: '/api/v1',
      anonymousRpm: 60,
      pageCache: { version: -1, pages: new Map<string, string>() },
      requestSeq: 0,
    };
    const call = (method: string, path: string, body = '') =>
      JSON.parse(
        handle(engine, {
          method,
          path,
          query: '',
          body,
          clientId: 't',
          header: (n) => (n === 'authorization' ? `Bearer ${ADMIN.pro}` : undefined),
        }).body,
      );
    const task = call(
      'POST',
      '/ext/tasks',
      JSON.stringify({ agent_id: 'agt_fixed', description: 'Ends in January.', priority: 'urgent' }),
    );
    now = Date.parse('2026-02-01T00:00:30.000Z');
    const february = call('GET', '/ext/usage');
    const done = call('GET', `/ext/tasks/${task.id}`);
    expect(done.completed_at < '2026-02-01').toBe(true);
    expect(february.period_start).toBe('2026-02-01T00:00:00.000Z');
    expect(february.tasks).toEqual({ queued: 0, running: 0, completed: 0, failed: 0 });
    expect(february.cost_usd).toBe(0);
    expect(february.balance_usd).toBe((nano(100) - nano(done.usage.cost_usd)) / 1e9);
  });
});
