import { describe, expect, it } from 'vitest';
import { median, pairedRatio } from '../../bench/stats.mjs';

// The bench judges issue 16's ratios round by round (bench/stats.mjs): a round in which the machine was slow for both
// servers must not move the verdict, as it does when each server's median is taken on its own.
describe('bench statistics', () => {
  it('median: the middle value, the mean of the two middle ones, NaN left out', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([NaN, 5])).toBe(5);
    expect(median([])).toBeNaN();
  });

  it('pairedRatio: a round where the whole machine was slow cancels out', () => {
    // The sandbox serves 90 % of node:http. The machine runs at half speed through rounds 2 and 3 (both servers' turns)
    // and again during the sandbox's turn of round 4.
    const sandbox = [{ rps: 9_000 }, { rps: 4_500 }, { rps: 4_500 }, { rps: 4_500 }, { rps: 9_000 }];
    const bare = [{ rps: 10_000 }, { rps: 5_000 }, { rps: 5_000 }, { rps: 10_000 }, { rps: 10_000 }];
    expect(pairedRatio(sandbox, bare, 'rps')).toBeCloseTo(0.9);
    // Each server's median on its own reads half of that.
    expect(median(sandbox.map((r) => r.rps)) / median(bare.map((r) => r.rps))).toBeCloseTo(0.45);
  });

  it('pairedRatio: CPU per request is node:http ÷ the server, so that higher is better in both', () => {
    expect(
      pairedRatio(
        [{ cpuUs: 40 }, { cpuUs: 50 }, { cpuUs: 60 }],
        [{ cpuUs: 30 }, { cpuUs: 30 }, { cpuUs: 30 }],
        'cpuUs',
      ),
    ).toBeCloseTo(0.6);
  });

  it('pairedRatio: rounds pair by index; extra rounds of one side are left out', () => {
    expect(pairedRatio([{ rps: 8 }, { rps: 9 }, { rps: 100 }], [{ rps: 10 }, { rps: 10 }], 'rps')).toBeCloseTo(0.85);
  });
});
