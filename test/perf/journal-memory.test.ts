/**
 * Memory of the journal: it keeps its last 1,000 requests, and must keep what it shows of them (method, path, headers,
 * body, answer, trace), not the door's request object. Through msw that object is msw's `Request`, with its body
 * stream, abort signal and listeners: 10–14 KB an entry when held whole. An entry holds the request's facts, its texts,
 * a plain copy of a fetch `Headers` and the core's answer. Measured with the engine's own collector (exposed for this
 * file), with a margin.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { inProcess, overSocket, viaFetch, type Door } from '../support/doors.js';
import { ADMIN, OPTIONS, postTask } from '../tasks-and-billing/support.js';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
setFlagsFromString('--no-expose-gc');

const ENTRIES = 1000;

/** Back to the event loop first: V8 keeps what a WeakRef handed out during a job alive until the job ends. */
async function heapUsed(): Promise<number> {
  await new Promise((resolve) => setImmediate(resolve));
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

const DOORS: [string, () => Door | Promise<Door>][] = [
  ['through msw', () => inProcess({ ...OPTIONS, journalSize: ENTRIES })],
  ['through sandbox.fetch', () => viaFetch({ ...OPTIONS, journalSize: ENTRIES })],
  ['over a socket', () => overSocket({ ...OPTIONS, journalSize: ENTRIES })],
];

it.each(DOORS)(
  '%s, the journal keeps under 2 KB a request, not the request objects of the door',
  async (_name, open) => {
    const door = await open();
    try {
      for (let batch = 0; batch < 30; batch++) {
        for (let i = 0; i < 50; i++) {
          const res = await postTask(door, ADMIN.enterprise, { agent_id: 'agt_fixed', description: `task ${i}` });
          expect(res.status).toBe(201);
        }
        await new Promise((resolve) => setImmediate(resolve));
        door.sandbox.clock.advance('1h');
      }
      expect(door.sandbox.requests).toHaveLength(ENTRIES);
      const full = await heapUsed();
      door.sandbox.clearRequests();
      const empty = await heapUsed();
      expect(door.sandbox.requests).toHaveLength(0);
      const perEntry = (full - empty) / ENTRIES;
      expect(perEntry).toBeGreaterThan(0);
      expect(perEntry).toBeLessThan(2048);
    } finally {
      await door.close();
    }
  },
);
