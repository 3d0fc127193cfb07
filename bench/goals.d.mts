/** Types of bench/goals.mjs, for the tests that import it. */
type Run = Record<string, number>;
export interface GoalRow {
  measure: string;
  value: string;
  goal: string;
  /** undefined: a figure shown beside the goals, not judged. */
  met: boolean | undefined;
}
export declare function benchGoals(
  results: {
    server?: { results: Record<string, Record<string, Record<string, Run[]>>> };
    stall?: unknown;
    cold?: unknown;
    inProcess?: unknown;
    memory?: unknown;
  },
  options: { connections: number; spins?: readonly number[]; baseline?: string },
): GoalRow[];
export declare function spinServer(us: number): string;
