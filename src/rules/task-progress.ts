import type { Priority } from '../model/types.js';
import { intBetween } from '../model/random.js';

/** Default timings of a task's progress, driven by the sandbox clock. */
export interface TaskTimings {
  queuedMs: number;
  runningMinMs: number;
  runningMaxMs: number;
}

export const DEFAULT_TASK_TIMINGS: TaskTimings = { queuedMs: 1_000, runningMinMs: 2_000, runningMaxMs: 8_000 };

/** Higher priority runs shorter. */
export const PRIORITY_SPEED: Readonly<Record<Priority, number>> = { low: 1.25, normal: 1, high: 0.75, urgent: 0.5 };

/**
 * When a task created at `createdAt` starts and ends: queued for `queuedMs`, then running a seeded time within the
 * range, scaled by priority and by `slowFactor` (the `slow-tasks` scenario).
 */
export function planProgress(rand: () => number, createdAt: number, priority: Priority, timings: TaskTimings, slowFactor = 1) {
  const running = intBetween(rand, timings.runningMinMs, timings.runningMaxMs);
  const startAt = createdAt + Math.round(timings.queuedMs * slowFactor);
  const endAt = startAt + Math.round(running * PRIORITY_SPEED[priority] * slowFactor);
  return { startAt, endAt };
}
