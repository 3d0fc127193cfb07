import { settleDue, type TaskEnv } from './tasks.js';

/** Moves settled per step of a slice, and the time one slice may take before it yields to requests. */
const STEP = 256;
const SLICE_MS = 4;
/** The longest a timer sleeps (a clock moved by `advance` is noticed within it). */
const MAX_SLEEP_MS = 1_000;

export interface SettleLoop {
  /** A task was planned: make sure a timer wakes when its first move falls due. */
  arm(): void;
  stop(): void;
}

/**
 * Real clock only: settles task moves as they fall due, in slices of at most ~4 ms off the request path, so that the
 * first request after a long idle finds nothing left to catch up (the books are those the moves leave in time order,
 * exactly as if each request had settled them). Timers do not keep a process alive.
 */
export function createSettleLoop(env: () => TaskEnv, now: () => number): SettleLoop {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timerAt = Infinity;
  let stopped = false;

  const schedule = (wake: number) => {
    if (stopped || wake === Infinity) return;
    if (timer !== undefined && timerAt <= wake) return;
    if (timer !== undefined) clearTimeout(timer);
    const delay = Math.min(MAX_SLEEP_MS, Math.max(0, wake - now()));
    timerAt = wake;
    timer = setTimeout(run, delay);
    (timer as { unref?: () => void }).unref?.();
  };

  const run = () => {
    timer = undefined;
    timerAt = Infinity;
    const e = env();
    const until = performance.now() + SLICE_MS;
    let more = true;
    while (more && performance.now() < until) more = settleDue(e, now(), STEP);
    // More due: yield to waiting requests, then go on; otherwise sleep until the next move.
    schedule(more ? now() : e.state.due.peekAt());
  };

  return {
    arm: () => schedule(env().state.due.peekAt()),
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
