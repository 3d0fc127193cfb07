import { describe, expect, it } from 'vitest';
import { ADMIN, PRO_READ_TASKS, eachDoor, nano, postTask } from './support.js';

describe('GET /ext/usage: "API usage statistics"', () => {
  for (const [name, run] of eachDoor(
    'requests (total and per endpoint), tokens, cost, tasks per status, balance, period and plan limits',
    async (door) => {
      const key = ADMIN.enterprise;
      await door.call('GET', '/ext/agents', { key });
      await door.call('GET', '/ext/agents/agt_alpha', { key });
      await door.call('GET', '/ext/agents/agt_missing', { key });
      const a = (await postTask(door, key, { agent_id: 'agt_fixed', description: 'one' })).json;
      const b = (await postTask(door, key, { agent_id: 'agt_alpha', description: 'two' })).json;
      const c = (await postTask(door, key, { agent_id: 'agt_charlie', description: 'three' })).json;
      await postTask(door, key, { agent_id: 'agt_bravo', description: 'four' });
      door.sandbox.tasks.complete(a.id);
      door.sandbox.tasks.fail(b.id);
      door.sandbox.clock.advance('1s');
      await door.call('GET', `/ext/tasks/${c.id}`, { key });
      const aDone = door.sandbox.tasks.get(a.id)!;

      const res = await door.call('GET', '/ext/usage', { key });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        account_id: 'acc_enterprise',
        plan: 'enterprise',
        period_start: '2026-01-01T00:00:00.000Z',
        period_end: '2026-02-01T00:00:00.000Z',
        balance_usd: (nano(200) - nano(aDone.usage.cost_usd)) / 1e9,
        requests: {
          total: 9,
          by_endpoint: {
            'GET /ext/agents': 1,
            'GET /ext/agents/:id': 2,
            'POST /ext/tasks': 4,
            'GET /ext/tasks/:id': 1,
            'GET /ext/usage': 1,
          },
        },
        tokens: {
          input: aDone.usage.input_tokens,
          output: aDone.usage.output_tokens,
          total: aDone.usage.input_tokens + aDone.usage.output_tokens,
        },
        cost_usd: aDone.usage.cost_usd,
        tasks: { queued: 0, running: 2, completed: 1, failed: 1 },
        limits: { rpm: 1000, tpm: 500_000 },
      });
    },
  ))
    it(name, run);

  for (const [name, run] of eachDoor(
    "usage is per account: another account's tasks and requests do not appear",
    async (door) => {
      await postTask(door, ADMIN.starter, { agent_id: 'agt_fixed', description: 'starter task' });
      const pro = (await door.call('GET', '/ext/usage', { key: ADMIN.pro })).json;
      expect(pro.requests.total).toBe(1);
      expect(pro.tasks).toEqual({ queued: 0, running: 0, completed: 0, failed: 0 });
    },
  ))
    it(name, run);

  for (const [name, run] of eachDoor(
    'GET /ext/usage needs read:usage (or admin): 403 insufficient_scope otherwise',
    async (door) => {
      const res = await door.call('GET', '/ext/usage', { key: PRO_READ_TASKS });
      expect(res.status).toBe(403);
      expect(res.json.error.code).toBe('insufficient_scope');
    },
  ))
    it(name, run);
});

describe('"The usage cost equals the sum of the task charges to the last unit"', () => {
  for (const [name, run] of eachDoor(
    'after 120 tasks on every agent, model and priority, some failed, cost and tokens reconcile exactly in nano-dollars',
    async (door) => {
      const { sandbox } = door;
      sandbox.accounts.update('acc_enterprise', { limits: { rpm: 10_000, tpm: 10_000_000 } });
      const agents = ['agt_alpha', 'agt_bravo', 'agt_charlie', 'agt_fixed'];
      const models = [undefined, 'model-a', 'model-b', 'model-c'];
      const priorities = ['low', 'normal', 'high', 'urgent'];
      const ids: string[] = [];
      for (let i = 0; i < 120; i++) {
        const res = await postTask(door, ADMIN.enterprise, {
          agent_id: agents[i % 4],
          description: `Task number ${i} `.repeat(1 + (i % 7)),
          model: models[(i >> 2) % 4],
          priority: priorities[(i >> 4) % 4],
        });
        expect(res.status).toBe(201);
        ids.push(res.json.id);
        if (i % 9 === 0) sandbox.tasks.fail(res.json.id);
        if (i % 10 === 0) sandbox.clock.advance('3s');
      }
      sandbox.clock.advance('1m');
      const tasks = await Promise.all(
        ids.map((id) => door.call('GET', `/ext/tasks/${id}`, { key: ADMIN.enterprise }).then((r) => r.json)),
      );
      const usage = (await door.call('GET', '/ext/usage', { key: ADMIN.enterprise })).json;
      const sumNano = tasks.reduce((s, t) => s + BigInt(nano(t.usage.cost_usd)), 0n);
      expect(BigInt(nano(usage.cost_usd))).toBe(sumNano);
      expect(usage.tokens.input).toBe(tasks.reduce((s, t) => s + t.usage.input_tokens, 0));
      expect(usage.tokens.output).toBe(tasks.reduce((s, t) => s + t.usage.output_tokens, 0));
      expect(BigInt(nano(200) - nano(usage.balance_usd))).toBe(sumNano);
      expect(usage.tasks).toEqual({
        queued: 0,
        running: 0,
        completed: tasks.filter((t) => t.status === 'completed').length,
        failed: 14,
      });
      expect(usage.tasks.completed).toBe(106);
      expect(sandbox.accounts.get('acc_enterprise')!.held_usd).toBe(0);
    },
  ))
    it(name, run);
});
