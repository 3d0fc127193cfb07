/**
 * Settling off the request path: moves settled in slices (and by the real-clock background loop, across a long idle
 * and a big clock jump) leave exactly the books that settling everything at once leaves: balances, holds, usage,
 * task records, and the task events in the same order.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFaker } from '../../src/model/default-fixtures.js';
import { parseFixtureSet } from '../../src/model/fixture-schema.js';
import { stateFromFixtures } from '../../src/model/state.js';
import type { Priority } from '../../src/model/types.js';
import { periodBounds } from '../../src/rules/period.js';
import { createSettleLoop } from '../../src/rules/settle-loop.js';
import { DEFAULT_TASK_TIMINGS } from '../../src/rules/task-progress.js';
import { createTask, settleDue, type TaskEnv } from '../../src/rules/tasks.js';
import { createSandbox } from '../../src/index.js';
import { ADMIN, OPTIONS, taskFixtures } from './support.js';

const PRIORITIES: Priority[] = ['low', 'normal', 'high', 'urgent'];
const T0 = Date.parse('2026-01-31T23:59:50.000Z'); // ten seconds before a period ends: moves land in two periods

/** A state with `n` tasks created over 5 s on two accounts; the events it emits, as text. */
function world(n: number) {
  const state = stateFromFixtures(parseFixtureSet(taskFixtures()), T0, periodBounds(T0));
  const events: string[] = [];
  const env: TaskEnv = {
    state,
    seed: 3,
    faker: createFaker(),
    timings: DEFAULT_TASK_TIMINGS,
    taskRetention: 500,
    onTaskEvent: (e) => events.push(`${e.type} ${e.task.id} ${e.at}`),
  };
  const accounts = [state.accounts.get('acc_enterprise')!, state.accounts.get('acc_pro')!];
  for (const a of accounts) a.balanceNano = 1e13;
  for (let i = 0; i < n; i++) {
    const agent = state.agents[i % state.agents.length]!;
    createTask(env, {
      account: accounts[i % 2]!,
      input: { agent, description: `task ${i}`, priority: PRIORITIES[(i * 5) % 4]!, model: agent.model },
      now: T0 + (i % 5000),
      effects: { tpm: Number.MAX_SAFE_INTEGER, fail: i % 7 === 0 },
    });
  }
  return {
    env,
    events,
    books: () =>
      JSON.stringify({
        accounts: [...state.accounts.values()],
        tasks: [...state.tasks.values()],
        finished: [...state.finished].map((t) => t.id),
      }),
  };
}

describe('settling in slices keeps the books exact', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('slices of 97 moves across a period end and a 40-day jump = everything settled at once', () => {
    const once = world(3000);
    const sliced = world(3000);
    const jump = T0 + 40 * 24 * 3600 * 1000;
    settleDue(once.env, jump);
    let slices = 0;
    while (settleDue(sliced.env, jump, 97)) slices += 1;
    expect(slices).toBeGreaterThan(10);
    expect(sliced.env.state.due.size).toBe(0);
    expect(sliced.events).toEqual(once.events);
    expect(sliced.books()).toBe(once.books());
    const [enterprise] = [...once.env.state.accounts.values()].filter((a) => a.id === 'acc_enterprise');
    expect(enterprise!.heldNano).toBe(0);
  });

  it('the real-clock loop settles during a long idle, with no request, in slices, to the same books', () => {
    vi.useFakeTimers({ now: T0 });
    const lazy = world(3000);
    const eager = world(3000);
    const loop = createSettleLoop(
      () => lazy.env,
      () => Date.now(),
    );
    loop.arm();
    vi.advanceTimersByTime(10 * 60 * 1000); // ten minutes of idle: only timers run
    loop.stop();
    expect(lazy.env.state.due.size).toBe(0);
    settleDue(eager.env, Date.now());
    expect(lazy.events).toEqual(eager.events);
    expect(lazy.books()).toBe(eager.books());
  });

  it('a sandbox on the real clock: tasks settle while it idles, and the books read afterwards are exact', () => {
    vi.useFakeTimers({ now: Date.parse('2026-01-10T00:00:00.000Z') });
    const sandbox = createSandbox({ ...OPTIONS, clock: 'real', now: undefined });
    sandbox.accounts.update('acc_enterprise', { balanceUsd: 1e6, limits: { rpm: 1_000_000, tpm: 1_000_000_000 } });
    const header = (n: string) => (n === 'authorization' ? `Bearer ${ADMIN.enterprise}` : undefined);
    for (let i = 0; i < 2000; i++) {
      const res = sandbox.handle({
        method: 'POST',
        path: '/ext/tasks',
        query: '',
        clientId: 't',
        header,
        body: `{"agent_id":"agt_bravo","description":"t${i}"}`,
      });
      expect(res.status).toBe(201);
    }
    vi.advanceTimersByTime(20_000);
    const usage = JSON.parse(
      sandbox.handle({ method: 'GET', path: '/ext/usage', query: '', clientId: 't', header, body: '' }).body,
    );
    expect(usage.tasks).toEqual({ queued: 0, running: 0, completed: 2000, failed: 0 });
    expect(sandbox.accounts.get('acc_enterprise')!.held_usd).toBe(0);
  });
});
