import type { Priority } from '../model/types.js';
import { intBetween } from '../model/random.js';

/** Default timings of a task's progress, driven by the sandbox clock. */
export interface TaskTimings {
  queuedMs: number;
  runningMinMs: number;
  runningMaxMs: number;
}

export const DEFAULT_TASK_TIMINGS: TaskTimings = { queuedMs: 1_000, runningMinMs: 2_000, runningMaxMs: 8_000 };

/**
 * Higher priority runs shorter: the share of the running range above its minimum that a priority may use. Every
 * priority stays within the range (default 2–8 s): low 2–8 s, normal 2–6.5 s, high 2–5 s, urgent 2–3.5 s.
 */
const PRIORITY_SPEED: Readonly<Record<Priority, number>> = { low: 1, normal: 0.75, high: 0.5, urgent: 0.25 };

/**
 * When a task created at `createdAt` starts and ends: queued for `queuedMs`, then running a seeded time within the
 * range (shorter for higher priority), all scaled by `slowFactor` (the `slow-tasks` scenario).
 */
export function planProgress(
  rand: () => number,
  {
    createdAt,
    priority,
    timings,
    slowFactor = 1,
  }: { createdAt: number; priority: Priority; timings: TaskTimings; slowFactor?: number | undefined },
) {
  const drawn = intBetween(rand, timings.runningMinMs, timings.runningMaxMs);
  const running = timings.runningMinMs + (drawn - timings.runningMinMs) * PRIORITY_SPEED[priority];
  const startAt = createdAt + Math.round(timings.queuedMs * slowFactor);
  const endAt = startAt + Math.round(running * slowFactor);
  return { startAt, endAt };
}
