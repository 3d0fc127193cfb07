import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/index.js';
import {
  ADMIN,
  AGENTS,
  PRO_READ_TASKS,
  PRO_WRITE_TASKS,
  eachDoor,
  expectedInputTokens,
  moneyAndTasks,
  postTask,
} from './support.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /ext/tasks: "Create a task for an agent" → "the created task"', () => {
  for (const [name, run] of eachDoor(
    'answers 201 with Location: /api/v1/ext/tasks/:id and the task, status queued',
    async (door) => {
      const res = await postTask(door, ADMIN.pro, {
        agent_id: 'agt_alpha',
        description: 'Summarise the quarterly report.',
        priority: 'high',
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const task = res.json;
      expect(task.id).toMatch(/^task_[a-z0-9]{16}$/);
      expect(res.headers.get('location')).toBe(`/api/v1/ext/tasks/${task.id}`);
      expect(task).toEqual({
        id: task.id,
        agent_id: 'agt_alpha',
        description: 'Summarise the quarterly report.',
        priority: 'high',
        model: 'model-a',
        status: 'queued',
        result: null,
        error: null,
        usage: { input_tokens: 0, output_tokens: 0, cost_usd: 0 },
        created_at: '2026-01-10T00:00:00.000Z',
        started_at: null,
        completed_at: null,
      });
      for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
        expect(res.headers.get(h)).not.toBeNull();
    },
  ))
    it(name, run);

  for (const [name, run] of eachDoor(
    'GET /ext/tasks/:id ("Status and results of one task") answers 200 with the same task; the Location resolves',
    async (door) => {
      const created = await postTask(door, ADMIN.pro, { agent_id: 'agt_bravo', description: 'Translate to French.' });
      const location = created.headers.get('location')!;
      const read = await door.call('GET', location.slice('/api/v1'.length), { key: ADMIN.pro });
      expect(read.status).toBe(200);
      expect(read.json).toEqual(created.json);
    },
  ))
    it(name, run);

  for (const [name, run] of eachDoor(
    '"A request for an agent or task identifier that does not exist fails with 404 not_found"; a task of another account is not found either',
    async (door) => {
      const created = await postTask(door, ADMIN.pro, { agent_id: 'agt_bravo', description: 'Mine.' });
      const missing = await door.call('GET', '/ext/tasks/task_doesnotexist0000', { key: ADMIN.pro });
      expect(missing.status).toBe(404);
      expect(missing.json.error.code).toBe('not_found');
      const other = await door.call('GET', `/ext/tasks/${created.json.id}`, { key: ADMIN.enterprise });
      expect(other.status).toBe(404);
      expect(other.json).toEqual({ error: { code: 'not_found', message: `No task with id '${created.json.id}'.` } });
      expect(other.text).toBe(missing.text.replace('task_doesnotexist0000', created.json.id));
    },
  ))
    it(name, run);

  it('priority is optional and defaults to normal', async () => {
    for (const [, run] of eachDoor('', async (door) => {
      const res = await postTask(door, ADMIN.pro, { agent_id: 'agt_bravo', description: 'No priority given.' });
      expect(res.status).toBe(201);
      expect(res.json.priority).toBe('normal');
    }))
      await run();
  });

  it('every priority low, normal, high, urgent is accepted', async () => {
    for (const [, run] of eachDoor('', async (door) => {
      for (const priority of ['low', 'normal', 'high', 'urgent']) {
        const res = await postTask(door, ADMIN.pro, { agent_id: 'agt_bravo', description: 'x', priority });
        expect(res.status, priority).toBe(201);
        expect(res.json.priority).toBe(priority);
      }
    }))
      await run();
  });

  it("the task runs on the agent's model by default; an optional `model` overrides it", async () => {
    for (const [, run] of eachDoor('', async (door) => {
      for (const [agentId, agent] of Object.entries(AGENTS)) {
        const byDefault = await postTask(door, ADMIN.pro, { agent_id: agentId, description: 'Default model.' });
        expect(byDefault.json.model).toBe(agent.model);
      }
      for (const model of ['model-a', 'model-b', 'model-c']) {
        const chosen = await postTask(door, ADMIN.pro, { agent_id: 'agt_bravo', description: 'Chosen model.', model });
        expect(chosen.status).toBe(201);
        expect(chosen.json.model).toBe(model);
      }
    }))
      await run();
  });

  it('unknown fields of the body are ignored', async () => {
    for (const [, run] of eachDoor('', async (door) => {
      const res = await postTask(door, ADMIN.pro, {
        agent_id: 'agt_bravo',
        description: 'Extra fields.',
        colour: 'blue',
        nested: { a: 1 },
      });
      expect(res.status).toBe(201);
      expect(res.json).not.toHaveProperty('colour');
    }))
      await run();
  });

  it('POST /ext/tasks needs write:tasks: "A request with a key that lacks the scope in the table fails with 403 insufficient_scope", and creates nothing', async () => {
    for (const [, run] of eachDoor('', async (door) => {
      const before = moneyAndTasks(door.sandbox.snapshot());
      const denied = await postTask(door, PRO_READ_TASKS, { agent_id: 'agt_bravo', description: 'Not allowed.' });
      expect(denied.status).toBe(ERRORS.insufficient_scope.status);
      expect(denied.json.error.code).toBe('insufficient_scope');
      expect(moneyAndTasks(door.sandbox.snapshot())).toEqual(before);
      const allowed = await postTask(door, PRO_WRITE_TASKS, { agent_id: 'agt_bravo', description: 'Allowed.' });
      expect(allowed.status).toBe(201);
      const read = await door.call('GET', `/ext/tasks/${allowed.json.id}`, { key: PRO_WRITE_TASKS });
      expect(read.status).toBe(403);
      expect((await door.call('GET', `/ext/tasks/${allowed.json.id}`, { key: PRO_READ_TASKS })).status).toBe(200);
    }))
      await run();
  });

  it('created_at, started_at and completed_at are ISO 8601 UTC timestamps once reached', async () => {
    for (const [, run] of eachDoor('', async (door) => {
      const res = await postTask(door, ADMIN.pro, { agent_id: 'agt_fixed', description: 'Timestamps.' });
      door.sandbox.clock.advance('1m');
      const done = await door.call('GET', `/ext/tasks/${res.json.id}`, { key: ADMIN.pro });
      for (const field of ['created_at', 'started_at', 'completed_at']) expect(done.json[field]).toMatch(ISO);
      expect(done.json.usage.input_tokens).toBe(expectedInputTokens('Timestamps.', 'agt_fixed'));
    }))
      await run();
  });
});
