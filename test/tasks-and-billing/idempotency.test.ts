import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/index.js';
import { ADMIN, eachDoor, moneyAndTasks, postTask } from './support.js';

const body = { agent_id: 'agt_alpha', description: 'Exactly once, please.', priority: 'high' };
const key = (k: string) => ({ 'Idempotency-Key': k });

describe('Idempotency-Key on POST /ext/tasks (sandbox extension)', () => {
  for (const [name, run] of eachDoor(
    'same key + same body → the first task, no second charge or hold, with Idempotent-Replayed: true',
    async (door) => {
      const first = await postTask(door, ADMIN.pro, body, key('order-1'));
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const afterFirst = moneyAndTasks(door.sandbox.snapshot());
      const again = await postTask(door, ADMIN.pro, body, key('order-1'));
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.headers.get('location')).toBe(first.headers.get('location'));
      expect(again.json).toEqual(first.json);
      expect(moneyAndTasks(door.sandbox.snapshot())).toEqual(afterFirst);
      expect(door.sandbox.tasks.list('acc_pro')).toHaveLength(1);
    },
  ))
    it(name, run);

  for (const [name, run] of eachDoor(
    'the same body written differently (key order, whitespace, ignored fields) is the same body',
    async (door) => {
      const first = await postTask(door, ADMIN.pro, body, key('order-2'));
      const reordered = `{ "priority": "high",\n  "description": "Exactly once, please.", "agent_id": "agt_alpha", "note": "ignored" }`;
      const again = await door.call('POST', '/ext/tasks', { key: ADMIN.pro, body: reordered, headers: key('order-2') });
      expect(again.status).toBe(201);
      expect(again.json.id).toBe(first.json.id);
    },
  ))
    it(name, run);

  for (const [name, run] of eachDoor('a replay shows the task as it is now (completed, charged once)', async (door) => {
    const first = await postTask(door, ADMIN.pro, body, key('order-3'));
    door.sandbox.clock.advance('1m');
    const balance = door.sandbox.accounts.get('acc_pro')!.balance_usd;
    const again = await postTask(door, ADMIN.pro, body, key('order-3'));
    expect(again.json.id).toBe(first.json.id);
    expect(again.json.status).toBe('completed');
    expect(door.sandbox.accounts.get('acc_pro')!.balance_usd).toBe(balance);
  }))
    it(name, run);

  for (const [name, run] of eachDoor(
    'same key + another body → 400 invalid_request naming the Idempotency-Key, and nothing is created',
    async (door) => {
      await postTask(door, ADMIN.pro, body, key('order-4'));
      const before = moneyAndTasks(door.sandbox.snapshot());
      for (const other of [
        { ...body, description: 'Something else.' },
        { ...body, priority: 'low' },
        { ...body, model: 'model-c' },
        { ...body, agent_id: 'agt_bravo' },
      ]) {
        const res = await postTask(door, ADMIN.pro, other, key('order-4'));
        expect(res.status).toBe(ERRORS.invalid_request.status);
        expect(res.json.error.code).toBe('invalid_request');
        expect(res.json.error.message).toContain('Idempotency-Key');
      }
      expect(moneyAndTasks(door.sandbox.snapshot())).toEqual(before);
    },
  ))
    it(name, run);

  for (const [name, run] of eachDoor(
    'keys are per account, and without a key every POST creates a task',
    async (door) => {
      const pro = await postTask(door, ADMIN.pro, body, key('shared'));
      const ent = await postTask(door, ADMIN.enterprise, body, key('shared'));
      expect(ent.status).toBe(201);
      expect(ent.json.id).not.toBe(pro.json.id);
      expect(ent.headers.get('idempotent-replayed')).toBeNull();
      const x = await postTask(door, ADMIN.pro, body);
      const y = await postTask(door, ADMIN.pro, body);
      expect(x.json.id).not.toBe(y.json.id);
    },
  ))
    it(name, run);

  for (const [name, run] of eachDoor(
    'a key is remembered for 24 h: afterwards the same key creates a new task',
    async (door) => {
      const first = await postTask(door, ADMIN.pro, body, key('order-5'));
      door.sandbox.clock.advance('23h');
      expect((await postTask(door, ADMIN.pro, body, key('order-5'))).json.id).toBe(first.json.id);
      door.sandbox.clock.advance('1h');
      const later = await postTask(door, ADMIN.pro, body, key('order-5'));
      expect(later.status).toBe(201);
      expect(later.json.id).not.toBe(first.json.id);
      expect(later.headers.get('idempotent-replayed')).toBeNull();
    },
  ))
    it(name, run);

  for (const [name, run] of eachDoor(
    'a request that failed is not remembered: retrying with the same key after a 402 creates the task',
    async (door) => {
      door.sandbox.accounts.update('acc_pro', { balanceUsd: 0 });
      expect((await postTask(door, ADMIN.pro, body, key('order-6'))).status).toBe(402);
      door.sandbox.accounts.update('acc_pro', { balanceUsd: 10 });
      const retry = await postTask(door, ADMIN.pro, body, key('order-6'));
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBeNull();
    },
  ))
    it(name, run);

  for (const [name, run] of eachDoor(
    'an empty Idempotency-Key or one over 255 characters → 400 invalid_request',
    async (door) => {
      for (const k of ['', 'k'.repeat(256)]) {
        const res = await postTask(door, ADMIN.pro, body, key(k));
        expect(res.status).toBe(400);
        expect(res.json.error.message).toContain('Idempotency-Key');
      }
      expect(door.sandbox.tasks.list()).toHaveLength(0);
    },
  ))
    it(name, run);
});
