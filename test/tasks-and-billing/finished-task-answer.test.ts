/**
 * A finished task's answer is built once and kept (src/core/task-json.ts): every read answers the same bytes as a
 * fresh build, a task still moving is never served from the keeping, a reset or restored state answers from its own
 * tasks, and the keeping is bounded.
 */
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import type { Engine } from '../../src/core/engine.js';
import { TASK_JSON_CACHE_SIZE, cachedTaskJson } from '../../src/core/task-json.js';
import { taskView } from '../../src/core/views.js';
import type { Task } from '../../src/model/types.js';
import { ADMIN, OPTIONS } from './support.js';

type Sandbox = ReturnType<typeof createSandbox>;

function call(sandbox: Sandbox, method: string, path: string, body = '') {
  return sandbox.handle({
    method,
    path,
    query: '',
    header: (name) =>
      name === 'authorization' ? `Bearer ${ADMIN.pro}` : name === 'content-type' ? 'application/json' : undefined,
    body,
    clientId: 'test',
  });
}

const post = (sandbox: Sandbox, description: string) =>
  JSON.parse(call(sandbox, 'POST', '/ext/tasks', JSON.stringify({ agent_id: 'agt_alpha', description })).body) as {
    id: string;
  };

describe('the answer of a finished task', () => {
  it('is the same bytes on every read; the task before it finished, and after a restore, is built afresh', () => {
    const sandbox = createSandbox(OPTIONS);
    const { id } = post(sandbox, 'Poll me until I am done.');
    const atCreation = sandbox.snapshot();
    const queued = call(sandbox, 'GET', `/ext/tasks/${id}`).body;
    sandbox.clock.advance('30s');
    const done = call(sandbox, 'GET', `/ext/tasks/${id}`).body;
    expect((JSON.parse(done) as { status: string }).status).toBe('completed');
    expect(call(sandbox, 'GET', `/ext/tasks/${id}`).body).toBe(done);

    // The same id in a restored state is another task object: it answers as queued, not from the kept answer.
    sandbox.restore(atCreation);
    expect(call(sandbox, 'GET', `/ext/tasks/${id}`).body).toBe(queued);
    sandbox.clock.advance('30s');
    expect(call(sandbox, 'GET', `/ext/tasks/${id}`).body).toBe(done);

    // A fresh sandbox with the same seed, requests and clock builds the same bytes without any keeping.
    const fresh = createSandbox(OPTIONS);
    post(fresh, 'Poll me until I am done.');
    fresh.clock.advance('30s');
    expect(call(fresh, 'GET', `/ext/tasks/${id}`).body).toBe(done);
  });

  it(`keeps at most ${TASK_JSON_CACHE_SIZE} answers, and only of finished tasks`, () => {
    const engine = {} as Engine;
    const task = (id: string, status: Task['status']) =>
      ({
        id,
        agentId: 'agt_alpha',
        description: 'x',
        priority: 'normal',
        model: 'model-a',
        status,
        result: status === 'failed' ? null : undefined,
        error: status === 'failed' ? { code: 'task_failed', message: 'Failed.' } : null,
        inputTokensCharged: 0,
        outputTokensCharged: 0,
        costNano: 0,
        createdAt: 0,
        startedAt: status === 'queued' ? null : 1000,
        completedAt: status === 'queued' ? null : 2000,
      }) as unknown as Task;
    expect(cachedTaskJson(engine, task('tsk_q', 'queued'))).toBe(JSON.stringify(taskView(task('tsk_q', 'queued'))));
    expect(engine.taskJson).toBeUndefined();
    for (let i = 0; i < TASK_JSON_CACHE_SIZE + 100; i++) {
      const t = task(`tsk_${i}`, 'failed');
      expect(cachedTaskJson(engine, t)).toBe(JSON.stringify(taskView(t)));
    }
    expect(engine.taskJson?.size).toBe(TASK_JSON_CACHE_SIZE);
    expect(engine.taskJson?.has('tsk_0')).toBe(false);
    expect(engine.taskJson?.has(`tsk_${TASK_JSON_CACHE_SIZE + 99}`)).toBe(true);
  });
});
