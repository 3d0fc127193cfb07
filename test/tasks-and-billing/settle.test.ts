import { describe, expect, it } from 'vitest';
import { createFaker } from '../../src/model/default-fixtures.js';
import { parseFixtureSet } from '../../src/model/fixture-schema.js';
import { stateFromFixtures } from '../../src/model/state.js';
import type { TaskRecord } from '../../src/model/task-record.js';
import type { Priority } from '../../src/model/types.js';
import { periodBounds } from '../../src/rules/period.js';
import { DEFAULT_TASK_TIMINGS } from '../../src/rules/task-progress.js';
import { createTask, settleDue, type TaskEnv, type TaskEvent } from '../../src/rules/tasks.js';
import { createSandbox } from '../../src/index.js';
import { ADMIN, OPTIONS, taskFixtures } from './support.js';

const N = 10_000;
const PRIORITIES: Priority[] = ['low', 'normal', 'high', 'urgent'];

/** A Map that counts lookups and whole scans, to show that settling visits only the tasks that are due. */
class CountingMap<K, V> extends Map<K, V> {
  gets = 0;
  scans = 0;
  override get(key: K) {
    this.gets += 1;
    return super.get(key);
  }
  override values() {
    this.scans += 1;
    return super.values();
  }
  override entries() {
    this.scans += 1;
    return super.entries();
  }
  override forEach(...args: Parameters<Map<K, V>['forEach']>) {
    this.scans += 1;
    return void super.forEach(...args);
  }
}

describe('settling: "settling costs O(log n) per due task, not a scan of all tasks"', () => {
  it(`${N} queued tasks settle correctly and in time order; a settle touches only the due tasks`, () => {
    const t0 = Date.parse('2026-01-10T00:00:00.000Z');
    const state = stateFromFixtures(parseFixtureSet(taskFixtures()), t0, periodBounds(t0));
    const tasks = new CountingMap<string, TaskRecord>();
    state.tasks = tasks;
    const events: TaskEvent[] = [];
    const env: TaskEnv = {
      state,
      seed: 7,
      faker: createFaker(),
      timings: DEFAULT_TASK_TIMINGS,
      onTaskEvent: (e) => events.push({ ...e, task: { ...e.task } }),
    };
    const account = state.accounts.get('acc_enterprise')!;
    account.balanceNano = 1e15;
    const agents = state.agents;
    for (let i = 0; i < N; i++) {
      // Created over 5 s, in a shuffled order of priorities and agents: their due times interleave.
      createTask(env, {
        account,
        input: {
          agent: agents[i % agents.length]!,
          description: `task ${i}`,
          priority: PRIORITIES[(i * 7) % 4]!,
          model: 'model-b',
        },
        now: t0 + (i % 5000),
        effects: { tpm: Number.MAX_SAFE_INTEGER },
      });
    }
    expect(tasks.size).toBe(N);
    const created = events.length;
    expect(created).toBe(N);

    // Nothing is due yet: no task is looked at.
    tasks.gets = 0;
    settleDue(env, t0 + 999);
    expect(tasks.gets).toBe(0);
    // Exactly the due moves are looked at: tasks created at t0 and t0 + 1 ms start at t0 + 1000 / + 1001.
    // (The queue holds the tasks themselves: a due move is handled without a lookup by id.)
    const beforeFirst = events.length;
    settleDue(env, t0 + 1001);
    const dueNow = [...tasks.values()].filter((t) => t.createdAt <= t0 + 1).length;
    expect(tasks.gets).toBe(0);
    expect(events.length - beforeFirst).toBe(dueNow);

    for (let now = t0 + 1001; now <= t0 + 20_000; now += 250) {
      tasks.gets = 0;
      tasks.scans = 0;
      const before = events.length;
      settleDue(env, now);
      expect(tasks.scans).toBe(0);
      expect(tasks.gets).toBe(0);
      const since = now === t0 + 1001 ? now : now - 250;
      expect(events.length - before).toBe(
        [...tasks.values()].filter(
          (t) => (t.startAt > since && t.startAt <= now) || (t.endAt > since && t.endAt <= now),
        ).length,
      );
    }
    tasks.scans = 0;
    const moves = events.slice(created);
    expect(moves).toHaveLength(2 * N);
    expect(
      moves.findIndex((m, i) => i > 0 && m.at < moves[i - 1]!.at),
      'first move out of time order',
    ).toBe(-1);
    const wrong = [...tasks.values()].filter(
      (t) =>
        t.status !== 'completed' ||
        t.startedAt !== t.startAt ||
        t.completedAt !== t.endAt ||
        t.startAt !== t.createdAt + 1000,
    );
    expect(wrong).toEqual([]);
    const started = new Map(moves.filter((e) => e.type === 'task.started').map((e) => [e.task.id, e.at]));
    expect(moves.filter((m) => m.type === 'task.completed' && !(m.at > started.get(m.task.id)!))).toEqual([]);
    expect(account.heldNano).toBe(0);
    expect(account.usage.tasks).toEqual({ queued: 0, running: 0, completed: N, failed: 0 });
  });

  it(`through the sandbox: ${N} tasks created at once are each queued, running and completed exactly when their timestamps say`, () => {
    const sandbox = createSandbox(OPTIONS);
    sandbox.accounts.update('acc_enterprise', { balanceUsd: 1e6, limits: { rpm: 1_000_000, tpm: 1_000_000_000 } });
    const header = (n: string) => (n === 'authorization' ? `Bearer ${ADMIN.enterprise}` : undefined);
    for (let i = 0; i < N; i++) {
      const res = sandbox.handle({
        method: 'POST',
        path: '/ext/tasks',
        query: '',
        clientId: 't',
        header,
        body: `{"agent_id":"agt_bravo","description":"t${i}","priority":"${PRIORITIES[i % 4]}"}`,
      });
      if (res.status !== 201) expect(res.body).toBe('201');
    }
    const finalOf = (() => {
      const probe = sandbox.snapshot();
      sandbox.clock.advance('1m');
      const final = new Map(
        sandbox.tasks.list().map((t) => [t.id, { start: Date.parse(t.started_at!), end: Date.parse(t.completed_at!) }]),
      );
      sandbox.restore(probe);
      return final;
    })();
    const t0 = sandbox.clock.now();
    for (const step of [500, 1000, 3000, 4567, 6000, 9000]) {
      sandbox.clock.set(t0 + step);
      const now = t0 + step;
      for (const t of sandbox.tasks.list()) {
        const { start, end } = finalOf.get(t.id)!;
        const expected = now < start ? 'queued' : now < end ? 'running' : 'completed';
        if (t.status !== expected) expect(`${t.id} at +${step}: ${t.status}`).toBe(expected);
      }
    }
    const usage = JSON.parse(
      sandbox.handle({ method: 'GET', path: '/ext/usage', query: '', clientId: 't', header, body: '' }).body,
    );
    expect(usage.tasks).toEqual({ queued: 0, running: 0, completed: N, failed: 0 });
  });
});
