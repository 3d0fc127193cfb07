/**
 * Seeded task results cost no memory per task: they are derived from the seed when read, never stored. A sandbox of
 * finished tasks holds as much after every result has been read as before (within a tenth of what a task costs), and
 * a task costs what it did before results were shaped (bench/cases/memory.mjs measures both builds side by side).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { IN_PROCESS_BASE, makeCall } from '../support/doors.js';
import { RESULT_TYPES } from '../../src/model/result-types.js';
import { DESCRIPTIONS, KEY, agentOf, options } from '../tasks-and-billing/results-support.js';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
setFlagsFromString('--no-expose-gc');

const TASKS = 2_000;

async function heapUsed(): Promise<number> {
  await new Promise((resolve) => setImmediate(resolve));
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

it(
  'reading the result of every finished task adds under a tenth of what a task costs, per task',
  { timeout: 120_000 },
  async () => {
    const sandbox = createSandbox({ ...options(), journalSize: 0 });
    sandbox.accounts.update('acc_results', { limits: { rpm: 1_000_000, tpm: 1_000_000_000 } });
    const call = makeCall(IN_PROCESS_BASE, {}, sandbox.fetch);
    const post = async (i: number) => {
      const type = RESULT_TYPES[i % RESULT_TYPES.length]!;
      const body = { agent_id: agentOf(type, i % 2 === 0 ? 'short' : 'long'), description: DESCRIPTIONS[type]! };
      const res = await call('POST', '/ext/tasks', { key: KEY, body });
      if (res.status !== 201) throw new Error(res.text);
    };
    const readAll = () => {
      let characters = 0;
      for (const task of sandbox.tasks.list()) characters += (task.result as { output: string }).output.length;
      return characters;
    };
    // Warm-up: every shape built once and the code paths compiled before the baseline heap is read.
    for (let i = 0; i < 200; i++) await post(i);
    sandbox.clock.advance('1h');
    readAll();
    const empty = await heapUsed();
    for (let i = 0; i < TASKS; i++) await post(i);
    sandbox.clock.advance('1h');
    const finished = await heapUsed();
    const characters = readAll();
    const read = await heapUsed();
    const perTask = (finished - empty) / TASKS;
    expect(characters / (TASKS + 200)).toBeGreaterThan(1000); // the results were built: kilobytes of text a task
    expect(perTask).toBeGreaterThan(0);
    expect((read - finished) / TASKS).toBeLessThan(perTask / 10);
  },
);
