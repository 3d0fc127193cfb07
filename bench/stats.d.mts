/** Types of bench/stats.mjs, for the tests that import it. */
export declare function median(xs: readonly number[]): number;
export declare function pairedRatio(
  runs: readonly Record<string, number>[],
  bareRuns: readonly Record<string, number>[],
  key: 'rps' | 'cpuUs',
): number;
