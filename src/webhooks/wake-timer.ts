/** Real-time timers of the dispatcher: the wake-up at the next thing due, and the bound of a flush. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A timer does not keep Node alive (a browser's timer id has no `unref`). */
function unref(timer: ReturnType<typeof setTimeout>): void {
  (timer as { unref?: () => void }).unref?.();
}

/** One pending wake-up at a sandbox time; asking for a later one while an earlier one is set keeps the earlier. */
export class WakeTimer {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private at = Infinity;

  constructor(private readonly fire: () => void) {}

  /** Wakes at sandbox time `wake` (`now`: the sandbox clock's time); Infinity: no wake-up. */
  set(wake: number, now: number): void {
    if (wake === Infinity) return this.clear();
    if (this.timer !== undefined && this.at <= wake) return;
    this.clear();
    this.at = wake;
    const timer = setTimeout(
      () => {
        this.timer = undefined;
        this.at = Infinity;
        this.fire();
      },
      Math.min(MAX_TIMER_MS, Math.max(0, wake - now + 1)),
    );
    unref(timer);
    this.timer = timer;
  }

  clear(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.at = Infinity;
  }
}

/** A promise that resolves to 'bound' after `ms` real milliseconds, and its cancel. */
export function deadline(ms: number): { reached: Promise<'bound'>; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const reached = new Promise<'bound'>((resolve) => {
    timer = setTimeout(() => resolve('bound'), ms);
    unref(timer);
  });
  return { reached, cancel: () => clearTimeout(timer) };
}
