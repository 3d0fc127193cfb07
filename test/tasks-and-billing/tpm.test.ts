import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/index.js';
import { ADMIN, AGENTS, eachDoor, expectedInputTokens, moneyAndTasks, postTask } from './support.js';

// 100,000 characters: 25,000 tokens of description, plus agt_fixed's overhead (40) and its maximum output (800).
const big = { agent_id: 'agt_fixed', description: 'w'.repeat(100_000) };
const ESTIMATE = expectedInputTokens(big.description, 'agt_fixed') + AGENTS.agt_fixed.outputMax;

describe('TPM: "RPM and TPM are the names of the per-plan limits (requests per minute and tokens per minute)"', () => {
  for (const [name, run] of eachDoor(
    "over the plan's TPM in the window → 429 rate_limit_exceeded, the message speaks of tokens, nothing is created",
    async (door) => {
      expect(ESTIMATE).toBe(25_840);
      // Starter: 60K tokens per minute. Two estimates fit (51,680), the third does not.
      expect((await postTask(door, ADMIN.starter, big)).status).toBe(201);
      expect((await postTask(door, ADMIN.starter, big)).status).toBe(201);
      const before = moneyAndTasks(door.sandbox.snapshot());
      const res = await postTask(door, ADMIN.starter, big);
      expect(res.status).toBe(ERRORS.rate_limit_exceeded.status);
      expect(res.json.error.code).toBe('rate_limit_exceeded');
      expect(res.json.error.message).toContain('tokens');
      expect(res.json.error.message).toContain('60000');
      expect(res.json.error.message).toMatch(/slow down/i);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(moneyAndTasks(door.sandbox.snapshot())).toEqual(before);
      expect(door.sandbox.tasks.list('acc_starter')).toHaveLength(2);
    },
  ))
    it(name, run);

  for (const [name, run] of eachDoor(
    'the token window is 60 seconds: after it ends, tasks are admitted again',
    async (door) => {
      await postTask(door, ADMIN.starter, big);
      await postTask(door, ADMIN.starter, big);
      expect((await postTask(door, ADMIN.starter, big)).status).toBe(429);
      door.sandbox.clock.advance('59s');
      expect((await postTask(door, ADMIN.starter, big)).status).toBe(429);
      door.sandbox.clock.advance('1s');
      expect((await postTask(door, ADMIN.starter, big)).status).toBe(201);
    },
  ))
    it(name, run);

  for (const [name, run] of eachDoor('a small task still fits in what is left of the window', async (door) => {
    await postTask(door, ADMIN.starter, big);
    await postTask(door, ADMIN.starter, big);
    // 8,160 tokens are left: a short description on agt_fixed needs about 843.
    expect((await postTask(door, ADMIN.starter, { agent_id: 'agt_fixed', description: 'short' })).status).toBe(201);
  }))
    it(name, run);

  for (const [name, run] of eachDoor(
    'the TPM follows the plan (Free: 10K) and an override set with accounts.update',
    async (door) => {
      door.sandbox.accounts.update('acc_free', { balanceUsd: 5 });
      const half = { agent_id: 'agt_fixed', description: 'v'.repeat(36_000) }; // 9,000 + 40 + 800 = 9,840 tokens
      expect((await postTask(door, ADMIN.free, half)).status).toBe(201);
      expect((await postTask(door, ADMIN.free, { agent_id: 'agt_fixed', description: 'v'.repeat(400) })).status).toBe(
        429,
      );
      door.sandbox.accounts.update('acc_free', { limits: { tpm: 20_000 } });
      expect((await postTask(door, ADMIN.free, { agent_id: 'agt_fixed', description: 'v'.repeat(400) })).status).toBe(
        201,
      );
      expect((await door.call('GET', '/ext/usage', { key: ADMIN.free })).json.limits).toEqual({ rpm: 10, tpm: 20_000 });
    },
  ))
    it(name, run);

  for (const [name, run] of eachDoor(
    'money is checked before tokens: a task over both the balance and the TPM answers 402',
    async (door) => {
      // Free: $0 of credits and 10K TPM.
      const res = await postTask(door, ADMIN.free, big);
      expect(res.status).toBe(402);
      expect(res.json.error.code).toBe('insufficient_credits');
    },
  ))
    it(name, run);
});
