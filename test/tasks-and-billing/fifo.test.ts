/** The finished tasks' list (src/model/fifo.ts): first in, first out, across its chunks, whatever the mix of calls. */
import { describe, expect, it } from 'vitest';
import { Fifo } from '../../src/model/fifo.js';
import { rngFor } from '../../src/model/random.js';

describe('the first-in first-out list of finished tasks', () => {
  it('hands items back in the order they came, across chunks, for any mix of adds and takes', () => {
    const fifo = new Fifo<string>();
    const model: string[] = [];
    let head = 0;
    const rand = rngFor(3, 'fifo');
    let n = 0;
    for (let step = 0; step < 60_000; step++) {
      // Runs of adds and of takes, long enough to cross the 8,192-item chunks both ways and to empty the list.
      const adding = Math.floor(step / 12_000) % 2 === 0 ? rand() < 0.8 : rand() < 0.2;
      if (adding) {
        const item = `task_${n++}`;
        fifo.add(item);
        model.push(item);
      } else expect(fifo.shift()).toBe(head < model.length ? model[head++] : undefined);
      expect(fifo.size).toBe(model.length - head);
    }
    expect([...fifo]).toEqual(model.slice(head));
    while (fifo.size > 0) expect(fifo.shift()).toBe(model[head++]);
    expect(fifo.shift()).toBeUndefined();
    expect([...fifo]).toEqual([]);
    fifo.add('again');
    expect([...fifo]).toEqual(['again']);
  });
});
