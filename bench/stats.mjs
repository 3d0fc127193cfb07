/** The bench's statistics: pure functions, no I/O (test/perf/bench-stats.test.ts). */

/** The median of the numbers that are not NaN (NaN when there are none). */
export function median(xs) {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * The ratio to node:http round by round (the two ran a few seconds apart, under the same machine load), then the
 * median of those: a round where the whole machine was slow moves both and cancels out, which the ratio of the two
 * medians does not do. `key` 'rps' gives server ÷ node:http; 'cpuUs' gives node:http ÷ server (higher is better in
 * both). Rounds are paired by index; extra rounds of either side are left out.
 */
export function pairedRatio(runs, bareRuns, key) {
  const n = Math.min(runs.length, bareRuns.length);
  const ratios = [];
  for (let i = 0; i < n; i++)
    ratios.push(key === 'cpuUs' ? bareRuns[i].cpuUs / runs[i].cpuUs : runs[i][key] / bareRuns[i][key]);
  return median(ratios);
}
