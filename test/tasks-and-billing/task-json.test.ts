/**
 * A task's answer is written without building the view object (src/core/task-json.ts): it must be the same bytes as
 * `JSON.stringify(taskView(task))` for every shape a task can take (queued, running, completed, failed, forced
 * results and errors of any JSON shape or none, forced times, any description).
 */
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { writeTaskJson } from '../../src/core/task-json.js';
import { taskView } from '../../src/core/views.js';
import { TaskRecord } from '../../src/model/task-record.js';
import { ADMIN, OPTIONS } from './support.js';

const T0 = Date.UTC(2026, 0, 2, 3, 4, 5, 6);

function record(description: string, outcome: 'completed' | 'failed' = 'completed', cost = 123_456_789) {
  const fields = { priority: 'high' as const, model: 'model-b' as const, status: 'queued' as const, outcome };
  return new TaskRecord({
    id: 'task_0123456789abcdef',
    seq: 7,
    accountId: 'acc_x',
    agentId: 'agt_alpha',
    description,
    fields,
    inputTokens: 150,
    plannedOutputTokens: 900,
    plannedCostNano: cost,
    holdNano: 2e9,
    createdAt: T0,
    startAt: T0 + 1500,
    endAt: T0 + 9000,
  });
}

const DESCRIPTIONS = [
  'Summarize the attached quarterly report in three bullet points.',
  'quotes " and \\ backslashes, \n newlines, \t tabs, \u0000 \u001f controls',
  'unicode: é ü 中文 😀, separators \u2028 \u2029, a lone surrogate \ud800 and \udfff',
  'x'.repeat(5000),
];

const FORCED_RESULTS: unknown[] = [
  { output: 'forced', nested: { list: [1, 2.5, -0, 1e21, null, true, 'ü'] } },
  'a bare string',
  0,
  false,
  [],
  null,
  { skipped: undefined, kept: 1 },
  () => 'no JSON form',
  Symbol('no JSON form'),
  { toJSON: (key: string) => `told '${key}'` },
  new Date(T0),
  Object.assign(() => 0, { toJSON: (key: string) => `a function told '${key}'` }),
];

describe('the answer of a task written without the view object', () => {
  it('is the same bytes as JSON.stringify(taskView(task)) for queued, running, completed and failed tasks', () => {
    for (const description of DESCRIPTIONS)
      for (const outcome of ['completed', 'failed'] as const)
        for (const cost of [0, 1, 123_456_789, 2 ** 52 + 1]) {
          const task = record(description, outcome, cost);
          expect(writeTaskJson(task)).toBe(JSON.stringify(taskView(task)));
          task.markRunning();
          expect(writeTaskJson(task)).toBe(JSON.stringify(taskView(task)));
          task.markEnded(outcome);
          expect(writeTaskJson(task)).toBe(JSON.stringify(taskView(task)));
        }
  });

  it('is the same bytes for forced results, errors and times, including values with no JSON form', () => {
    for (const result of FORCED_RESULTS) {
      const task = record('forced');
      task.markRunning();
      task.markEnded('completed');
      task.force({ result, startedAt: null, completedAt: T0 + 1 });
      expect(writeTaskJson(task)).toBe(JSON.stringify(taskView(task)));
    }
    for (const error of [
      { code: 'boom', message: 'It "broke" \u2028.' },
      null,
      { code: 'x', message: '', extra: [1] },
    ]) {
      const task = record('forced', 'failed');
      task.markRunning();
      task.markEnded('failed');
      task.force({ error });
      expect(writeTaskJson(task)).toBe(JSON.stringify(taskView(task)));
    }
  });

  it('answers POST and GET with the bytes of the task view, through the sandbox', () => {
    const sandbox = createSandbox(OPTIONS);
    const post = (description: string) =>
      sandbox.handle({
        method: 'POST',
        path: '/ext/tasks',
        query: '',
        header: (name) =>
          name === 'authorization' ? `Bearer ${ADMIN.pro}` : name === 'content-type' ? 'application/json' : undefined,
        body: JSON.stringify({ agent_id: 'agt_alpha', description, priority: 'low' }),
        clientId: 'test',
      });
    for (const description of DESCRIPTIONS) {
      const created = post(description);
      expect(created.status).toBe(201);
      const { id } = JSON.parse(created.body) as { id: string };
      expect(created.body).toBe(JSON.stringify(sandbox.tasks.get(id)));
    }
    const { id } = JSON.parse(post('to be completed with a forced result').body) as { id: string };
    sandbox.tasks.complete(id, { answer: 42, text: 'ü "quoted"' });
    const read = sandbox.handle({
      method: 'GET',
      path: `/ext/tasks/${id}`,
      query: '',
      header: (name) => (name === 'authorization' ? `Bearer ${ADMIN.pro}` : undefined),
      body: '',
      clientId: 'test',
    });
    expect(read.body).toBe(JSON.stringify(sandbox.tasks.get(id)));
  });
});
