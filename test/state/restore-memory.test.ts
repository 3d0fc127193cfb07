/**
 * Memory of a restored state (issue 16): a state file parsed with JSON.parse has its own copy of every string in every
 * task; the restored tasks share one copy of what they repeat (account, agent, description), as created tasks do.
 * Measured with the engine's own collector (exposed for this file), with a wide margin: a copy per task is 250 B more.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { createSandbox, type StateSnapshot } from '../../src/index.js';
import { viaFetch } from '../support/doors.js';
import { ADMIN, OPTIONS, postTask } from '../tasks-and-billing/support.js';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
setFlagsFromString('--no-expose-gc');

const TASKS = 20_000;
const DESCRIPTION = `Summarize the attached quarterly report. ${'Keep every figure and name it. '.repeat(6)}`;

function heapUsed(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

/** A snapshot of TASKS finished tasks of one account, agent and description, as the text of a state file. */
async function stateFileText(): Promise<string> {
  const door = viaFetch(OPTIONS);
  expect((await postTask(door, ADMIN.pro, { agent_id: 'agt_fixed', description: DESCRIPTION })).status).toBe(201);
  door.sandbox.clock.advance('1h');
  const snapshot = door.sandbox.snapshot();
  const [task] = snapshot.tasks;
  snapshot.tasks = Array.from({ length: TASKS }, (_, i) => ({ ...task!, id: `task_${String(i).padStart(16, '0')}` }));
  return JSON.stringify(snapshot);
}

/** In a function of its own, so that nothing of the parsed file outlives it. */
function restore(sandbox: ReturnType<typeof createSandbox>, text: string): void {
  sandbox.restore(JSON.parse(text) as StateSnapshot);
}

it('tasks restored from a state file share the strings they repeat: a few hundred bytes per task, not a copy each', async () => {
  const text = await stateFileText();
  const sandbox = createSandbox({ ...OPTIONS, taskRetention: Infinity });
  const before = heapUsed();
  restore(sandbox, text);
  const perTask = (heapUsed() - before) / TASKS;
  expect(sandbox.tasks.list().length).toBeGreaterThanOrEqual(TASKS);
  expect(DESCRIPTION.length).toBeGreaterThan(200);
  expect(perTask).toBeLessThan(400);
});
