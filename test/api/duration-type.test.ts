/** `clock.advance` takes a typed duration: the forms the clock reads compile, a typo does not. */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createSandbox, type Duration } from '../../src/index.js';

describe('clock.advance takes a typed duration', () => {
  it('accepts milliseconds and the duration forms, each moving the clock by what it says', () => {
    const sandbox = createSandbox({ clock: 'manual' });
    const start = sandbox.clock.now();
    const steps: [number | Duration, number][] = [
      [1500, 1500],
      ['90s', 90_000],
      ['5m', 300_000],
      ['1.5h', 5_400_000],
      ['2 days', 172_800_000],
      ['250ms', 250],
    ];
    let expected = start;
    for (const [by, ms] of steps) {
      expected += ms;
      expect(sandbox.clock.advance(by)).toBe(expected);
    }
  });

  it('refuses a string that is no duration at compile time', () => {
    expectTypeOf<'soon'>().not.toMatchTypeOf<Duration>();
    expectTypeOf<'90s'>().toMatchTypeOf<Duration>();
    expectTypeOf<'2 weeks'>().toMatchTypeOf<Duration>();
  });
});

describe('lists of records name a real account', () => {
  it('tasks.list and keys.list of an unknown account throw not_found instead of returning []', () => {
    const sandbox = createSandbox();
    expect(() => sandbox.tasks.list('acc_nope')).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(() => sandbox.keys.list('acc_nope')).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(sandbox.tasks.list('acc_demo')).toEqual([]);
    expect(sandbox.keys.list('acc_demo').length).toBeGreaterThan(0);
  });
});
