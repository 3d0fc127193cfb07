import { describe, expect, it } from 'vitest';
import { benchGoals, spinServer } from '../../bench/goals.mjs';

const runs = (...rps: number[]) => rps.map((r) => ({ rps: r, p99: 5 }));

// `npm run bench -- --spin 3,10`: the door with a stand-in core of N µs of CPU. Its ratio is shown beside the goal, as
// what a core of that cost could reach; only the sandbox itself is judged.
describe("the bench's goals table", () => {
  const server = {
    results: {
      'POST /ext/tasks': {
        50: {
          sandbox: runs(5_000, 6_000, 5_500),
          [spinServer(3)]: runs(8_000, 7_500, 8_200),
          [spinServer(10)]: runs(6_000, 6_500, 6_600),
          'node:http': runs(10_000, 10_000, 10_000),
        },
      },
    },
  };
  const rows = benchGoals({ server }, { connections: 50, spins: [3, 10] });

  it('judges the sandbox alone against the POST goal, round by round', () => {
    const judged = rows.find((r) => r.measure.startsWith('POST /ext/tasks req/s ÷ node:http (which parses the JSON)'));
    expect(judged).toMatchObject({ value: expect.stringMatching(/^0\.55 /), goal: '≥ 0.70', met: false });
  });

  it('shows each stand-in core as a figure beside the goal, not judged', () => {
    const spins = rows.filter((r) => r.measure.includes('stand-in core'));
    expect(spins.map((r) => [r.measure, r.value, r.met])).toEqual([
      [
        'POST /ext/tasks req/s ÷ node:http, 50 connections, for a stand-in core of 3 µs of CPU a request',
        '0.80',
        undefined,
      ],
      [
        'POST /ext/tasks req/s ÷ node:http, 50 connections, for a stand-in core of 10 µs of CPU a request',
        '0.65',
        undefined,
      ],
    ]);
    expect(spins[0]?.goal).toBe('(what a core of 3 µs could reach; the goal is ≥ 0.70)');
  });
});

// The guard: with --baseline, every line a user feels is judged against the baseline build measured in the same run.
describe("the bench's guard against a baseline build", () => {
  const cpu = (...us: number[]) => us.map((c) => ({ rps: 1, p99: 5, cpuUs: c }));
  const results = {
    server: {
      results: {
        'GET /ext/agents': { 50: { sandbox: cpu(50, 52, 51), 'sandbox@base': cpu(50, 50, 50), 'node:http': cpu(40) } },
        'POST /ext/tasks': { 50: { sandbox: cpu(80, 90, 85), 'sandbox@base': cpu(70, 70, 70), 'node:http': cpu(60) } },
      },
    },
    memory: [
      {
        name: 'sandbox',
        tasks: 10_000,
        advanceMs: 10,
        heapPerQueuedTask: 230,
        retention: { queuedMB: 2, afterDropMB: 1 },
      },
      { name: 'sandbox@base', tasks: 10_000, advanceMs: 10, heapPerQueuedTask: 200 },
    ],
  };
  const rows = benchGoals(results, { connections: 50, baseline: 'base' }).filter((r) => r.measure.includes('÷ base'));

  it('judges server CPU per request round by round, and the memory lines, at most 10 % worse', () => {
    expect(rows.map((r) => [r.measure, r.value, r.met])).toEqual([
      ['server CPU per request, GET /ext/agents, 50 conn., this build ÷ base', '1.02', true],
      ['server CPU per request, POST /ext/tasks, 50 conn., this build ÷ base', '1.21', false],
      ["`clock.advance('1m')` over 10,000 tasks, this build ÷ base", '1.00', true],
      ['heap per queued task, 10,000 tasks, this build ÷ base', '1.15', false],
    ]);
  });

  it("shows beside it what the answers' bytes cost node:http alone, round by round, when it served both builds' bytes", () => {
    const withBytes = {
      server: {
        results: {
          'GET /ext/tasks/:id': {
            1: {
              sandbox: cpu(120, 130, 126),
              'sandbox@base': cpu(100, 100, 100),
              'node:http': cpu(90, 99, 96),
              'node:http, bytes of base': cpu(80, 80, 80),
            },
          },
        },
      },
    };
    const guard = benchGoals(withBytes, { connections: 50, baseline: 'base' }).filter((r) => r.measure.includes('÷'));
    expect(guard.map((r) => [r.measure, r.value, r.met])).toEqual([
      ['server CPU per request, GET /ext/tasks/:id, 1 conn., this build ÷ base', '1.26', false],
      // Rounds: 1.20 ÷ 1.125, 1.30 ÷ 1.2375, 1.26 ÷ 1.20: each about 1.05. A figure, not judged.
      ['server CPU per request at equal bytes, GET /ext/tasks/:id, 1 conn., this build ÷ base', '1.05', undefined],
    ]);
  });

  it('adds no guard row without a baseline', () => {
    expect(benchGoals(results, { connections: 50 }).some((r) => r.measure.includes('this build ÷'))).toBe(false);
  });
});
