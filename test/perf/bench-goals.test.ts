import { describe, expect, it } from 'vitest';
import { issue16Goals, spinServer } from '../../bench/goals.mjs';

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
  const rows = issue16Goals({ server }, { connections: 50, spins: [3, 10] });

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
