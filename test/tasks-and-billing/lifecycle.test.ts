import { describe, expect, it } from 'vitest';
import { createSandbox, type Priority } from '../../src/index.js';
import { inProcess, overSocket, type Door } from '../support/doors.js';
import { ADMIN, OPTIONS, eachDoor, nano, postTask } from './support.js';

const T0 = Date.parse('2026-01-10T00:00:00.000Z');
const iso = (t: number) => new Date(t).toISOString();
const get = (door: Door, id: string) => door.call('GET', `/ext/tasks/${id}`, { key: ADMIN.pro }).then((r) => r.json);

describe('lifecycle by clock: queued → running → completed', () => {
  for (const [name, run] of eachDoor(
    'queued for 1 s, then running (started_at), then completed after a seeded 2–8 s (completed_at), with result and usage only then',
    async (door) => {
      const { sandbox } = door;
      const created = (
        await postTask(door, ADMIN.pro, { agent_id: 'agt_alpha', description: 'Walk through the states.' })
      ).json;
      const atCreation = sandbox.snapshot();
      sandbox.clock.advance(999);
      expect((await get(door, created.id)).status).toBe('queued');
      sandbox.clock.advance(1);
      const running = await get(door, created.id);
      expect(running.status).toBe('running');
      expect(running.started_at).toBe(iso(T0 + 1000));
      expect(running.completed_at).toBeNull();
      expect(running.result).toBeNull();
      expect(running.usage).toEqual({ input_tokens: 0, output_tokens: 0, cost_usd: 0 });

      sandbox.clock.advance('30s');
      const done = await get(door, created.id);
      expect(done.status).toBe('completed');
      expect(done.started_at).toBe(iso(T0 + 1000));
      const end = Date.parse(done.completed_at);
      expect(end - (T0 + 1000)).toBeGreaterThanOrEqual(2000);
      expect(end - (T0 + 1000)).toBeLessThanOrEqual(8000);
      expect(typeof done.result.output).toBe('string');
      expect(done.result.output.length).toBeGreaterThan(0);
      expect(done.error).toBeNull();
      expect(done.usage.input_tokens).toBeGreaterThan(0);
      expect(done.usage.output_tokens).toBeGreaterThan(0);
      expect(done.usage.cost_usd).toBeGreaterThan(0);

      // Exactly at completed_at, not a millisecond before.
      sandbox.restore(atCreation);
      sandbox.clock.set(end - 1);
      expect((await get(door, created.id)).status).toBe('running');
      sandbox.clock.advance(1);
      expect(await get(door, created.id)).toEqual(done);
    },
  ))
    it(name, run);

  it('running time is within 2–8 s for every priority, and shorter for higher priority (same seeded draw)', () => {
    const durations: Record<string, number> = {};
    for (const priority of ['low', 'normal', 'high', 'urgent'] as Priority[]) {
      const sandbox = createSandbox(OPTIONS);
      const t = sandbox.handle({
        method: 'POST',
        path: '/ext/tasks',
        query: '',
        clientId: 't',
        body: JSON.stringify({ agent_id: 'agt_bravo', description: 'Same draw.', priority }),
        header: (n) => (n === 'authorization' ? `Bearer ${ADMIN.pro}` : undefined),
      });
      const id = JSON.parse(t.body).id;
      sandbox.clock.advance('1m');
      const task = sandbox.tasks.get(id)!;
      durations[priority] = Date.parse(task.completed_at!) - Date.parse(task.started_at!);
      expect(Date.parse(task.started_at!) - Date.parse(task.created_at!)).toBe(1000);
    }
    expect(durations.low).toBeGreaterThan(durations.normal!);
    expect(durations.normal).toBeGreaterThan(durations.high!);
    expect(durations.high).toBeGreaterThan(durations.urgent!);
    for (const d of Object.values(durations)) {
      expect(d).toBeGreaterThanOrEqual(2000);
      expect(d).toBeLessThanOrEqual(8000);
    }
  });

  it('over many tasks, every priority stays within 2–8 s and a higher priority never runs longer on average', () => {
    const sandbox = createSandbox(OPTIONS);
    sandbox.accounts.update('acc_enterprise', { limits: { rpm: 100_000, tpm: 100_000_000 } });
    const ids: Record<Priority, string[]> = { low: [], normal: [], high: [], urgent: [] };
    for (let i = 0; i < 100; i++) {
      for (const priority of Object.keys(ids) as Priority[]) {
        const res = sandbox.handle({
          method: 'POST',
          path: '/ext/tasks',
          query: '',
          clientId: 't',
          body: JSON.stringify({ agent_id: 'agt_bravo', description: `d${i}`, priority }),
          header: (n) => (n === 'authorization' ? `Bearer ${ADMIN.enterprise}` : undefined),
        });
        expect(res.status).toBe(201);
        ids[priority].push(JSON.parse(res.body).id);
      }
    }
    sandbox.clock.advance('1m');
    const mean = (p: Priority) => {
      const ds = ids[p]
        .map((id) => sandbox.tasks.get(id)!)
        .map((t) => Date.parse(t.completed_at!) - Date.parse(t.started_at!));
      for (const d of ds) expect(d >= 2000 && d <= 8000, `${p}: ${d} ms`).toBe(true);
      return ds.reduce((a, b) => a + b, 0) / ds.length;
    };
    expect(mean('low')).toBeGreaterThan(mean('normal'));
    expect(mean('normal')).toBeGreaterThan(mean('high'));
    expect(mean('high')).toBeGreaterThan(mean('urgent'));
  });

  it('"Same seed, same fixtures, same requests, manual clock → byte-identical responses"', async () => {
    const transcript = async () => {
      const door = inProcess(OPTIONS);
      const out: string[] = [];
      try {
        for (const priority of ['low', 'urgent']) {
          const res = await postTask(door, ADMIN.pro, {
            agent_id: 'agt_charlie',
            description: `Repeatable ${priority}`,
            priority,
          });
          out.push(res.text);
          door.sandbox.clock.advance('20s');
          out.push((await door.call('GET', `/ext/tasks/${res.json.id}`, { key: ADMIN.pro })).text);
        }
        out.push((await door.call('GET', '/ext/usage', { key: ADMIN.pro })).text);
      } finally {
        await door.close();
      }
      return out;
    };
    expect(await transcript()).toEqual(await transcript());
  });
});

describe('forced outcomes', () => {
  it('sandbox.tasks.complete(id, result): completed now, with the given result, charged; the hold is released', async () => {
    const door = inProcess(OPTIONS);
    try {
      const created = (await postTask(door, ADMIN.pro, { agent_id: 'agt_fixed', description: 'Force me.' })).json;
      const balance = nano(door.sandbox.accounts.get('acc_pro')!.balance_usd);
      const forced = door.sandbox.tasks.complete(created.id, { answer: 42 });
      expect(forced.status).toBe('completed');
      expect(forced.result).toEqual({ answer: 42 });
      expect(forced.started_at).toBe(iso(T0));
      expect(forced.completed_at).toBe(iso(T0));
      expect(forced.usage.output_tokens).toBe(800);
      expect(await get(door, created.id)).toEqual(forced);
      const account = door.sandbox.accounts.get('acc_pro')!;
      expect(account.held_usd).toBe(0);
      expect(balance - nano(account.balance_usd)).toBe(nano(forced.usage.cost_usd));
      // Its planned moves later change nothing.
      door.sandbox.clock.advance('1m');
      expect(await get(door, created.id)).toEqual(forced);
      expect(() => door.sandbox.tasks.complete(created.id)).toThrow(/already ended/);
      expect(() => door.sandbox.tasks.fail(created.id)).toThrow(/already ended/);
    } finally {
      await door.close();
    }
  });

  it('sandbox.tasks.complete(id) without a result gives the seeded result', async () => {
    const door = inProcess(OPTIONS);
    try {
      const created = (await postTask(door, ADMIN.pro, { agent_id: 'agt_fixed', description: 'Seeded result.' })).json;
      expect(typeof door.sandbox.tasks.complete(created.id).result).toBe('object');
      expect(door.sandbox.tasks.get(created.id)!.result).toHaveProperty('output');
    } finally {
      await door.close();
    }
  });

  it('sandbox.tasks.fail(id, error): failed, with the error, not charged, the hold released', async () => {
    const door = inProcess(OPTIONS);
    try {
      const created = (await postTask(door, ADMIN.pro, { agent_id: 'agt_fixed', description: 'Fail me.' })).json;
      const balance = door.sandbox.accounts.get('acc_pro')!.balance_usd;
      door.sandbox.clock.advance('1500ms');
      const failed = door.sandbox.tasks.fail(created.id, { code: 'agent_crashed', message: 'The agent crashed.' });
      expect(failed.status).toBe('failed');
      expect(failed.error).toEqual({ code: 'agent_crashed', message: 'The agent crashed.' });
      expect(failed.result).toBeNull();
      expect(failed.started_at).toBe(iso(T0 + 1000));
      expect(failed.completed_at).toBe(iso(T0 + 1500));
      expect(failed.usage).toEqual({ input_tokens: 0, output_tokens: 0, cost_usd: 0 });
      expect(door.sandbox.accounts.get('acc_pro')).toMatchObject({ balance_usd: balance, held_usd: 0 });
      const byDefault = (await postTask(door, ADMIN.pro, { agent_id: 'agt_fixed', description: 'Fail me plainly.' }))
        .json;
      expect(door.sandbox.tasks.fail(byDefault.id).error).toEqual({
        code: 'task_failed',
        message: 'The agent could not complete the task.',
      });
    } finally {
      await door.close();
    }
  });

  it('the control API: POST /__sandbox/tasks/:id/complete and /fail force an outcome; an unknown task is 404, an ended one 400', async () => {
    const door = await overSocket(OPTIONS);
    const control = door.baseUrl.replace(/\/api\/v1$/, '/__sandbox');
    const post = (path: string, body?: unknown) =>
      fetch(`${control}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    try {
      const a = (await postTask(door, ADMIN.pro, { agent_id: 'agt_fixed', description: 'Control complete.' })).json;
      const b = (await postTask(door, ADMIN.pro, { agent_id: 'agt_fixed', description: 'Control fail.' })).json;
      const completed = await post(`/tasks/${a.id}/complete`, { result: { text: 'done by hand' } });
      expect(completed.status).toBe(200);
      expect(await completed.json()).toMatchObject({ id: a.id, status: 'completed', result: { text: 'done by hand' } });
      const failed = await post(`/tasks/${b.id}/fail`, { error: { code: 'timeout', message: 'Too slow.' } });
      expect(failed.status).toBe(200);
      expect(await failed.json()).toMatchObject({
        id: b.id,
        status: 'failed',
        error: { code: 'timeout', message: 'Too slow.' },
      });
      expect((await get(door, a.id)).status).toBe('completed');
      expect((await get(door, b.id)).status).toBe('failed');
      const unknown = await post('/tasks/task_nope/complete');
      expect(unknown.status).toBe(404);
      expect((await unknown.json()).error.code).toBe('not_found');
      const again = await post(`/tasks/${a.id}/fail`);
      expect(again.status).toBe(400);
      expect((await again.json()).error.code).toBe('invalid_request');
    } finally {
      await door.close();
    }
  });

  for (const [name, run] of eachDoor(
    'failed tasks are not charged: the failing-tasks scenario ends tasks failed, and the balance is untouched',
    async (door) => {
      const balance = door.sandbox.accounts.get('acc_pro')!.balance_usd;
      const created = (
        await postTask(
          door,
          ADMIN.pro,
          { agent_id: 'agt_alpha', description: 'Doomed.' },
          { 'X-Sandbox-Scenario': 'failing-tasks' },
        )
      ).json;
      door.sandbox.clock.advance('1m');
      const task = await get(door, created.id);
      expect(task.status).toBe('failed');
      expect(task.error.code).toBe('task_failed');
      expect(task.usage.cost_usd).toBe(0);
      expect(door.sandbox.accounts.get('acc_pro')).toMatchObject({ balance_usd: balance, held_usd: 0 });
      const usage = (await door.call('GET', '/ext/usage', { key: ADMIN.pro })).json;
      expect(usage.tasks.failed).toBe(1);
      expect(usage.cost_usd).toBe(0);
    },
  ))
    it(name, run);
});
