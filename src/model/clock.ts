import { ClockError } from '../errors.js';
import ms from 'ms';

export type ClockMode = 'real' | 'manual';

type DurationUnit =
  | 'ms'
  | 's'
  | 'sec'
  | 'secs'
  | 'second'
  | 'seconds'
  | 'm'
  | 'min'
  | 'mins'
  | 'minute'
  | 'minutes'
  | 'h'
  | 'hr'
  | 'hrs'
  | 'hour'
  | 'hours'
  | 'd'
  | 'day'
  | 'days'
  | 'w'
  | 'week'
  | 'weeks'
  | 'y'
  | 'yr'
  | 'yrs'
  | 'year'
  | 'years';

/** A duration as `clock.advance` reads it: `'90s'`, `'5m'`, `'1.5h'`, `'2 days'`; a typo such as `'soon'` does not compile. */
export type Duration = `${number}${DurationUnit}` | `${number} ${DurationUnit}` | `${number}`;

/** The sandbox clock: rate windows, task progress, billing periods and `X-RateLimit-Reset` read it. */
export interface Clock {
  readonly mode: ClockMode;
  /** Current time, epoch milliseconds. */
  now(): number;
  /** Moves the clock forward by milliseconds or a duration (`'90s'`, `'5m'`, `'1h'`); returns the new time. */
  advance(by: number | Duration): number;
  /** Sets the clock (manual) or its offset from real time (real); returns the new time. */
  set(to: Date | string | number): number;
}

/** Where a manual clock starts unless told otherwise. */
const MANUAL_CLOCK_START = Date.parse('2026-01-01T00:00:00.000Z');

/** Milliseconds of a duration given as data (a control-API body): a ClockError when it is not one. */
export function parseDuration(by: number | string): number {
  const value = typeof by === 'number' ? by : (ms as (s: string) => number | undefined)(by.trim());
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new ClockError(
      `Cannot advance the clock by ${JSON.stringify(by)}: give milliseconds ≥ 0 or a duration such as "90s", "5m", "1h".`,
    );
  }
  return Math.floor(value);
}

function parseInstant(to: Date | string | number): number {
  const value = to instanceof Date ? to.getTime() : typeof to === 'number' ? to : Date.parse(to);
  if (!Number.isFinite(value)) {
    throw new ClockError(
      `Cannot set the clock to ${JSON.stringify(to)}: give an ISO 8601 timestamp or epoch milliseconds.`,
    );
  }
  return value;
}

/** The clock stays within 1970–9998, so every time it yields (period ends included) is a plain ISO 8601 UTC timestamp. */
const CLOCK_MIN = 0;
const CLOCK_MAX = Date.parse('9998-12-31T23:59:59.999Z');

function inRange(target: number, asked: unknown): number {
  if (!(target >= CLOCK_MIN && target <= CLOCK_MAX)) {
    throw new ClockError(
      `Cannot move the clock to ${JSON.stringify(asked)}: it must stay between 1970-01-01 and 9998-12-31 (UTC).`,
    );
  }
  return target;
}

/**
 * Creates a clock. `onChange` runs after every `advance`/`set`, so the sandbox can settle what fell due.
 */
export function createClock(mode: ClockMode, start: number | undefined, onChange: () => void): Clock {
  let manualNow = start ?? MANUAL_CLOCK_START;
  let offset = mode === 'real' && start !== undefined ? start - Date.now() : 0;
  const now = mode === 'manual' ? () => manualNow : () => Date.now() + offset;
  return {
    mode,
    now,
    advance(by) {
      const delta = parseDuration(by);
      inRange(now() + delta, by);
      if (mode === 'manual') manualNow += delta;
      else offset += delta;
      onChange();
      return now();
    },
    set(to) {
      const target = inRange(parseInstant(to), to);
      if (mode === 'manual') manualNow = target;
      else offset = target - Date.now();
      onChange();
      return now();
    },
  };
}
