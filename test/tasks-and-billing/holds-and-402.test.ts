import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/index.js';
import { DOORS, type Door } from '../support/doors.js';
import { ADMIN, eachDoor, moneyAndTasks, nano, postTask } from './support.js';

const body = { agent_id: 'agt_fixed', description: 'Hold me.' };

/** The hold of one `body` task on acc_pro, read from the sandbox after creating one on a scratch account state. */
async function holdOfOne(door: Door): Promise<number> {
  const snap = door.sandbox.snapshot();
  await postTask(door, ADMIN.pro, body);
  const hold = nano(door.sandbox.accounts.get('acc_pro')!.held_usd);
  door.sandbox.restore(snap);
  expect(hold).toBeGreaterThan(0);
  return hold;
}

describe('"A task that the account cannot pay for fails with 402 insufficient_credits"', () => {
  for (const [name, run] of eachDoor(
    'the Free plan starts with $0 of credits: 402 insufficient_credits, and nothing changes (snapshot before = after)',
    async (door) => {
      const before = door.sandbox.snapshot();
      const res = await postTask(door, ADMIN.free, body);
      expect(res.status).toBe(ERRORS.insufficient_credits.status);
      expect(res.json.error.code).toBe('insufficient_credits');
      expect(res.json.error.message).toMatch(/^Insufficient credits/);
      const after = door.sandbox.snapshot();
      expect(moneyAndTasks(after)).toEqual(moneyAndTasks(before));
      // Only the request counters moved: no task, no hold, no charge, no token in the TPM window.
      expect(after.tasks).toHaveLength(0);
      expect(after.accounts.find((a) => a.id === 'acc_free')!.heldNano).toBe(0);
      expect(door.sandbox.tasks.list('acc_free')).toEqual([]);
    },
  ))
    it(name, run);

  for (const [name, run] of eachDoor(
    'a balance one nano-dollar short of the hold: 402, nothing changes; a balance equal to the hold: 201',
    async (door) => {
      const hold = await holdOfOne(door);
      door.sandbox.accounts.update('acc_pro', { balanceUsd: (hold - 1) / 1e9 });
      const before = moneyAndTasks(door.sandbox.snapshot());
      expect((await postTask(door, ADMIN.pro, body)).status).toBe(402);
      expect(moneyAndTasks(door.sandbox.snapshot())).toEqual(before);
      door.sandbox.accounts.update('acc_pro', { balanceUsd: hold / 1e9 });
      expect((await postTask(door, ADMIN.pro, body)).status).toBe(201);
    },
  ))
    it(name, run);

  for (const [name, run] of eachDoor(
    'holds count: a task is refused when its estimate exceeds the balance minus the holds of unfinished tasks',
    async (door) => {
      const hold = await holdOfOne(door);
      door.sandbox.accounts.update('acc_pro', { balanceUsd: (2 * hold + hold - 1) / 1e9 });
      expect((await postTask(door, ADMIN.pro, body)).status).toBe(201);
      expect((await postTask(door, ADMIN.pro, body)).status).toBe(201);
      // The balance itself is untouched (nothing charged yet), but only hold − 1 is spendable.
      expect(nano(door.sandbox.accounts.get('acc_pro')!.balance_usd)).toBe(3 * hold - 1);
      expect((await postTask(door, ADMIN.pro, body)).status).toBe(402);
      // Once the two complete, their holds are released and their (equal, fixed-output) charges taken.
      door.sandbox.clock.advance('1m');
      expect(nano(door.sandbox.accounts.get('acc_pro')!.held_usd)).toBe(0);
      expect(nano(door.sandbox.accounts.get('acc_pro')!.balance_usd)).toBe(hold - 1);
    },
  ))
    it(name, run);
});

describe.each(DOORS)('holds under 200 concurrent POSTs (%s)', (_kind, open) => {
  it('against a balance that pays for exactly k tasks, exactly k succeed and the rest get 402 insufficient_credits', async () => {
    const door = await open();
    try {
      const { sandbox } = door;
      // The default fixtures and a real clock: the same sandbox a client meets.
      const key = sandbox.keys.list('acc_demo').find((k) => k.label === 'admin')!.key;
      const agentId = (await door.call('GET', '/ext/agents?limit=1', { key })).json.data[0].id;
      const one = { agent_id: agentId, description: 'Concurrent task.' };
      sandbox.accounts.update('acc_demo', { limits: { rpm: 100_000, tpm: 100_000_000 } });
      const probe = sandbox.snapshot();
      await postTask(door, key, one);
      const hold = nano(sandbox.accounts.get('acc_demo')!.held_usd);
      sandbox.restore(probe);

      const k = 37;
      sandbox.accounts.update('acc_demo', { balanceUsd: (k * hold + hold - 1) / 1e9 });
      const answers = await Promise.all(Array.from({ length: 200 }, () => postTask(door, key, one)));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(k);
      expect(statuses.filter((s) => s === 402)).toHaveLength(200 - k);
      expect(answers.filter((a) => a.status === 402).every((a) => a.json.error.code === 'insufficient_credits')).toBe(
        true,
      );
      const tasks = sandbox.tasks.list('acc_demo');
      expect(tasks).toHaveLength(k);
      // Every unfinished task holds exactly one estimate; nothing more is held.
      const unfinished = tasks.filter((t) => t.status === 'queued' || t.status === 'running').length;
      expect(nano(sandbox.accounts.get('acc_demo')!.held_usd)).toBe(unfinished * hold);
      expect(sandbox.accounts.get('acc_demo')!.balance_usd).toBeGreaterThanOrEqual(0);
    } finally {
      await door.close();
    }
  });
});

describe('"The balance never goes below zero"', () => {
  for (const [name, run] of eachDoor(
    'lowering the balance to $0 while a task runs: the task still completes and the balance stays at 0',
    async (door) => {
      const created = await postTask(door, ADMIN.pro, {
        agent_id: 'agt_alpha',
        description: 'Run while the money goes.',
      });
      door.sandbox.clock.advance('1s');
      expect(door.sandbox.tasks.get(created.json.id)!.status).toBe('running');
      door.sandbox.accounts.update('acc_pro', { balanceUsd: 0 });
      door.sandbox.clock.advance('1m');
      const task = (await door.call('GET', `/ext/tasks/${created.json.id}`, { key: ADMIN.pro })).json;
      expect(task.status).toBe('completed');
      expect(task.usage.cost_usd).toBeGreaterThan(0);
      const usage = (await door.call('GET', '/ext/usage', { key: ADMIN.pro })).json;
      expect(usage.balance_usd).toBe(0);
      expect(door.sandbox.accounts.get('acc_pro')!.held_usd).toBe(0);
    },
  ))
    it(name, run);

  for (const [name, run] of eachDoor(
    'lowering the balance below the coming charge: the balance ends at 0, not below',
    async (door) => {
      const created = await postTask(door, ADMIN.pro, { agent_id: 'agt_fixed', description: 'Partly paid.' });
      door.sandbox.accounts.update('acc_pro', { balanceUsd: 0.000001 });
      door.sandbox.clock.advance('1m');
      const task = door.sandbox.tasks.get(created.json.id)!;
      expect(nano(task.usage.cost_usd)).toBeGreaterThan(1_000);
      expect(door.sandbox.accounts.get('acc_pro')!.balance_usd).toBe(0);
    },
  ))
    it(name, run);
});
