import { describe, expect, it } from 'vitest';
import { createFaker } from '../../src/model/default-fixtures.js';
import { DueQueue } from '../../src/model/due-queue.js';
import { parseFixtureSet } from '../../src/model/fixture-schema.js';
import { stateFromFixtures, toSnapshot } from '../../src/model/state.js';
import type { Priority } from '../../src/model/types.js';
import { periodBounds } from '../../src/rules/period.js';
import { DEFAULT_TASK_TIMINGS } from '../../src/rules/task-progress.js';
import { settleBySums } from '../../src/rules/settle-sums.js';
import { createTask, dropBeyondRetention, finish, settleDue, type TaskEnv } from '../../src/rules/tasks.js';
import { taskFixtures } from './support.js';

const PRIORITIES: Priority[] = ['low', 'normal', 'high', 'urgent'];
const ACCOUNTS = ['acc_enterprise', 'acc_pro'];
const DAY = 86_400_000;

/** A small seeded generator, so both sandboxes get the very same tasks. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

interface Run {
  env: TaskEnv;
  moves: string[];
}

/**
 * Thousands of tasks over two accounts, random priorities, some slow (3×, so their starts go to the heap out of
 * order) and some failing, some ended early by the control API, created at `step`-ms offsets (fractional times use
 * the comparator sort), with settles in between so that running tasks' ends wait in the heap; then one big jump over
 * the end of the period. `sumsFrom` 0: every quiet settle by sums; Infinity: one by one.
 */
function scenario(
  sumsFrom: number,
  opts: {
    retention?: number;
    step?: number;
    tasks?: number;
    quiet?: boolean;
    noControl?: boolean;
    /** Time from the first task to the end of the period (default 90 s: the final jump crosses it). */
    beforePeriodEnd?: number;
    /** The final jump (default 40 days). */
    jump?: number;
    /** Changes to the books before the final jump. */
    books?: (state: TaskEnv['state']) => void;
    /** The final settle (default settleDue with `sumsFrom`). */
    final?: (env: TaskEnv, now: number) => void;
  } = {},
): Run {
  const t0 = periodBounds(Date.parse('2026-01-10T00:00:00.000Z')).end - (opts.beforePeriodEnd ?? 90_000);
  const state = stateFromFixtures(parseFixtureSet(taskFixtures()), t0, periodBounds(t0));
  const moves: string[] = [];
  const env: TaskEnv = {
    state,
    seed: 11,
    faker: createFaker(),
    timings: DEFAULT_TASK_TIMINGS,
    taskRetention: opts.retention,
    onTaskEvent: (e) => moves.push(`${e.type} ${e.task.id} ${e.at}`),
    quietMoves: () => opts.quiet === true,
  };
  for (const id of ACCOUNTS) state.accounts.get(id)!.balanceNano = 1e15;
  const rand = lcg(5);
  const step = opts.step ?? 7;
  for (let i = 0; i < (opts.tasks ?? 6000); i++) {
    const now = t0 + i * step;
    if (i % 1000 === 999) settleDue(env, now, Infinity, sumsFrom);
    const account = state.accounts.get(ACCOUNTS[i % 2]!)!;
    const task = createTask(env, {
      account,
      input: {
        agent: state.agents[i % state.agents.length]!,
        description: `task ${i}`,
        priority: PRIORITIES[Math.floor(rand() * 4)]!,
        model: 'model-b',
      },
      now,
      effects: { tpm: Number.MAX_SAFE_INTEGER, slowFactor: rand() < 0.2 ? 3 : 1, fail: rand() < 0.1 },
    });
    if (rand() < 0.02 && opts.noControl !== true) finish(env, task, { at: now, outcome: 'failed' });
  }
  opts.books?.(state);
  const final = opts.final ?? ((e: TaskEnv, now: number) => settleDue(e, now, Infinity, sumsFrom));
  final(env, t0 + (opts.jump ?? 40 * DAY));
  return { env, moves };
}

function books(run: Run, at: number): string {
  return JSON.stringify(toSnapshot(run.env.state, run.env.seed, at));
}

describe('settling a big jump: "the books are those the moves leave in time order"', () => {
  const finished = (run: Run) => [...run.env.state.finished].map((t) => t.id);

  it('a quiet settle by sums leaves the same books and finished list as popping (and telling) the moves one by one', () => {
    const one = scenario(Infinity);
    const sums = scenario(0, { quiet: true });
    expect(one.moves.length).toBeGreaterThan(17_000);
    expect(one.env.state.due.size).toBe(0);
    expect(sums.env.state.due.size).toBe(0);
    expect(books(sums, 0)).toBe(books(one, 0));
    expect(finished(sums).sort()).toEqual(finished(one).sort());
  });

  it('with retention, fractional times (the comparator sort) and a period end inside the jump: the same books', () => {
    const one = scenario(Infinity, { retention: 500, step: 6.5, tasks: 3000 });
    const sums = scenario(0, { retention: 500, step: 6.5, tasks: 3000, quiet: true });
    expect(one.env.state.tasks.size).toBeLessThan(600);
    expect(finished(sums)).toEqual(finished(one));
    expect(books(sums, 0)).toBe(books(one, 0));
  });

  it('moves spread over more than 65,536 ms (two radix passes over the time), with retention: the same books', () => {
    const one = scenario(Infinity, { tasks: 1500, step: 90, retention: 700 });
    const sums = scenario(0, { tasks: 1500, step: 90, retention: 700, quiet: true });
    expect(finished(sums)).toEqual(finished(one));
    expect(books(sums, 0)).toBe(books(one, 0));
  });
});

describe('settling with nobody listening: "no event work when nobody listens"', () => {
  it('a quiet settle (bulk or one by one) makes no task event for the moves, and leaves the same books', () => {
    const told = scenario(Infinity, { tasks: 3000, noControl: true });
    for (const sumsFrom of [0, Infinity]) {
      const quiet = scenario(sumsFrom, { tasks: 3000, quiet: true, noControl: true });
      expect(quiet.moves.filter((m) => !m.startsWith('task.created'))).toEqual([]);
      expect(told.moves.length).toBe(3 * 3000);
      expect(books(quiet, 0)).toBe(books(told, 0));
    }
  });
});

describe('settling a big jump by sums when nobody listens (settle-sums.ts): the same books as in time order', () => {
  const quietOnes = (opts: Parameters<typeof scenario>[1]) => scenario(Infinity, { ...opts, quiet: true });
  const bySums = (opts: Parameters<typeof scenario>[1]) =>
    scenario(0, {
      ...opts,
      quiet: true,
      final: (env, now) => {
        settleBySums(env, now);
        dropBeyondRetention(env);
      },
    });
  const cases: [string, Parameters<typeof scenario>[1]][] = [
    ['no period end inside the jump (the books are sums)', { beforePeriodEnd: 20 * DAY, jump: DAY }],
    ['a period end inside the jump (the ends replayed in time order)', {}],
    ['a jump that leaves some tasks running (their ends queued)', { beforePeriodEnd: 20 * DAY, jump: 45_000 }],
    ['retention drops the first finished', { beforePeriodEnd: 20 * DAY, jump: DAY, retention: 700 }],
    ['retention, and a period end inside the jump', { retention: 700 }],
    [
      'balances that would reach zero (clamped: replayed)',
      { beforePeriodEnd: 20 * DAY, jump: DAY, books: (s) => (s.accounts.get('acc_pro')!.balanceNano = 1e6) },
    ],
    [
      'a balance in fractions of a nano-dollar (sums not exact: replayed)',
      { beforePeriodEnd: 20 * DAY, jump: DAY, books: (s) => (s.accounts.get('acc_pro')!.balanceNano += 0.25) },
    ],
    ['tasks ended early by the control API', { beforePeriodEnd: 20 * DAY, jump: DAY, noControl: false }],
  ];
  for (const [name, opts] of cases) {
    it(name, () => {
      const one = quietOnes({ noControl: true, ...opts });
      const sums = bySums({ noControl: true, ...opts });
      expect(sums.moves).toEqual(one.moves);
      expect(books(sums, 0)).toBe(books(one, 0));
      // In the order they finished under a retention bound (which reads it); the same tasks without one.
      const finished = (run: Run) => [...run.env.state.finished].map((t) => t.id);
      if (opts?.retention === undefined) expect(finished(sums).sort()).toEqual(finished(one).sort());
      else expect(finished(sums)).toEqual(finished(one));
    });
  }

  it('the clamped case does clamp (so that the replay is what the test compares)', () => {
    const run = quietOnes({
      noControl: true,
      beforePeriodEnd: 20 * DAY,
      jump: DAY,
      books: (s) => (s.accounts.get('acc_pro')!.balanceNano = 1e6),
    });
    expect(run.env.state.accounts.get('acc_pro')!.balanceNano).toBe(0);
  });
});

describe('the due queue: takeDue takes exactly the due moves and leaves a valid heap of the rest', () => {
  it('random times, out of order and in a run, taken at several cut-offs; the rest pops in (time, order) order', () => {
    const rand = lcg(9);
    const q = new DueQueue<number>();
    let left: { at: number; order: number }[] = [];
    for (let seq = 1; seq <= 5000; seq++) {
      const at = seq < 2500 ? seq * 3 : Math.floor(rand() * 20_000);
      const end = rand() < 0.5;
      q.push(at, seq, seq, end ? 'end' : 'start');
      left.push({ at, order: seq * 2 + (end ? 1 : 0) });
    }
    for (const cut of [500, 4000, 12_000]) {
      const due = left.filter((m) => m.at <= cut).length;
      expect(q.countDue(cut, Infinity)).toBe(due);
      expect(q.countDue(cut, 10)).toBeGreaterThanOrEqual(Math.min(10, due));
      const taken: number[] = [];
      q.takeDue(cut, (_at, order) => taken.push(order));
      expect(taken.sort((x, y) => x - y)).toEqual(
        left
          .filter((m) => m.at <= cut)
          .map((m) => m.order)
          .sort((x, y) => x - y),
      );
      left = left.filter((m) => m.at > cut);
      expect(q.size).toBe(left.length);
    }
    const rest: number[] = [];
    for (let seq = q.popDue(Infinity); seq !== undefined; seq = q.popDue(Infinity))
      rest.push(q.poppedAt * 1e5 + seq * 2 + (q.poppedEnd ? 1 : 0));
    expect(rest).toEqual(left.map((m) => m.at * 1e5 + m.order).sort((x, y) => x - y));
  });
});

describe('the due queue: "ties in time keep the order in which the moves were planned"', () => {
  it('a start queued when the run moves its live moves to the front keeps its own time (each move pops at its time)', () => {
    const q = new DueQueue<number>();
    const times = new Map<number, number>();
    let seq = 0;
    const push = () => {
      seq += 1;
      times.set(seq, seq * 10);
      q.push(seq * 10, seq, seq, 'start');
    };
    for (let i = 0; i < 64; i++) push();
    for (let i = 0; i < 40; i++) q.popDue(Infinity);
    for (let i = 0; i < 100; i++) push();
    const wrong: number[] = [];
    for (let s = q.popDue(Infinity); s !== undefined; s = q.popDue(Infinity))
      if (q.poppedAt !== times.get(s)) wrong.push(s);
    expect(wrong).toEqual([]);
    expect(seq).toBe(164);
  });
});
