import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanId } from '../../src/index.js';
import { DOORS, type Door } from '../support/doors.js';
import { ADMIN, AGENTS, OPTIONS, PLANS_UNDER_TEST, expectedInputTokens, nano, postTask } from './support.js';

/** The API document, §8 Token pricing: "Prices are in dollars per 1M tokens." (copied as text, not from the code) */
const DOC_PRICES = {
  'model-a': { input: '$3.25', output: '$13.00' },
  'model-b': { input: '$0.20', output: '$0.60' },
  'model-c': { input: '$3.90', output: '$19.50' },
} as const;
type ModelName = keyof typeof DOC_PRICES;
/** The API document, §8 Plans: Pro "10% volume discount", Enterprise "20% volume discount". */
const DOC_DISCOUNT_PERCENT: Record<PlanId, bigint> = { free: 0n, starter: 0n, pro: 10n, enterprise: 20n };

/** "$3.25" per 1M tokens → nano-dollars per token: $1 per 1M tokens is 1e9 nano / 1e6 tokens = 1,000 nano a token. */
function nanoPerToken(price: string): bigint {
  const [dollars, cents = ''] = price.slice(1).split('.');
  return (BigInt(dollars!) * 100n + BigInt(cents.padEnd(2, '0'))) * 10n;
}

/** "Charge is per token consumed: input tokens plus output tokens", less the plan's discount; exact, in nano-dollars. */
function expectedCost(model: ModelName, plan: PlanId, input: number, output: number): bigint {
  const list =
    BigInt(input) * nanoPerToken(DOC_PRICES[model].input) + BigInt(output) * nanoPerToken(DOC_PRICES[model].output);
  const scaled = list * (100n - DOC_DISCOUNT_PERCENT[plan]);
  expect(scaled % 100n, 'every discounted price is a whole number of nano-dollars').toBe(0n);
  return scaled / 100n;
}

const DESCRIPTION = `Price check: ${'z'.repeat(997)}`; // 1,010 characters
const ROWS = PLANS_UNDER_TEST.flatMap((plan) =>
  (Object.keys(DOC_PRICES) as ModelName[]).map((model) => ({ plan, model })),
);

describe.each(DOORS)('per-token billing (%s)', (_kind, open) => {
  let door: Door;
  beforeAll(async () => {
    door = await open(OPTIONS);
    for (const plan of PLANS_UNDER_TEST)
      door.sandbox.accounts.update(`acc_${plan}`, { balanceUsd: 100, limits: { rpm: 10_000, tpm: 1_000_000 } });
  });
  afterAll(() => door.close());

  it.each(ROWS)(
    '"Charge is per token consumed: input tokens plus output tokens": exact cost of $model on the $plan plan',
    async ({ plan, model }) => {
      const accountId = `acc_${plan}`;
      const balanceBefore = nano(door.sandbox.accounts.get(accountId)!.balance_usd);
      const created = await postTask(door, ADMIN[plan], { agent_id: 'agt_fixed', description: DESCRIPTION, model });
      expect(created.status).toBe(201);
      door.sandbox.clock.advance('30s');
      const task = (await door.call('GET', `/ext/tasks/${created.json.id}`, { key: ADMIN[plan] })).json;
      expect(task.status).toBe('completed');
      const input = expectedInputTokens(DESCRIPTION, 'agt_fixed');
      expect(task.usage.input_tokens).toBe(input);
      expect(task.usage.output_tokens).toBe(AGENTS.agt_fixed.outputMax);
      const cost = expectedCost(model, plan, input, AGENTS.agt_fixed.outputMax);
      // USD at the edge: the JSON number is the exact nano-dollar figure divided by 1e9.
      expect(task.usage.cost_usd).toBe(Number(cost) / 1e9);
      expect(BigInt(balanceBefore - nano(door.sandbox.accounts.get(accountId)!.balance_usd))).toBe(cost);
    },
  );

  it('"10% volume discount" (Pro) and "20% volume discount" (Enterprise): exactly 90 % and 80 % of the list price that Free and Starter pay', async () => {
    const costs: Partial<Record<PlanId, number>> = {};
    for (const plan of PLANS_UNDER_TEST) {
      const created = await postTask(door, ADMIN[plan], {
        agent_id: 'agt_fixed',
        description: 'Discount check.',
        model: 'model-c',
      });
      door.sandbox.clock.advance('30s');
      costs[plan] = nano(
        (await door.call('GET', `/ext/tasks/${created.json.id}`, { key: ADMIN[plan] })).json.usage.cost_usd,
      );
    }
    expect(costs.free).toBe(costs.starter);
    expect(costs.pro! * 10).toBe(costs.starter! * 9);
    expect(costs.enterprise! * 10).toBe(costs.starter! * 8);
  });

  it("at creation the estimated cost is held (input tokens plus the agent's maximum output, at the discounted price); at completion the hold is released and the actual cost charged", async () => {
    const description = 'Hold check: estimate with the maximum output.';
    const before = door.sandbox.accounts.get('acc_pro')!;
    expect(before.held_usd).toBe(0);
    const created = await postTask(door, ADMIN.pro, { agent_id: 'agt_alpha', description });
    const input = expectedInputTokens(description, 'agt_alpha');
    const hold = expectedCost('model-a', 'pro', input, AGENTS.agt_alpha.outputMax);
    const queued = door.sandbox.accounts.get('acc_pro')!;
    expect(BigInt(nano(queued.held_usd))).toBe(hold);
    expect(queued.balance_usd).toBe(before.balance_usd);

    door.sandbox.clock.advance('30s');
    const task = (await door.call('GET', `/ext/tasks/${created.json.id}`, { key: ADMIN.pro })).json;
    expect(task.usage.output_tokens).toBeGreaterThanOrEqual(AGENTS.agt_alpha.outputMin);
    expect(task.usage.output_tokens).toBeLessThanOrEqual(AGENTS.agt_alpha.outputMax);
    const charged = expectedCost('model-a', 'pro', input, task.usage.output_tokens);
    expect(BigInt(nano(task.usage.cost_usd))).toBe(charged);
    const after = door.sandbox.accounts.get('acc_pro')!;
    expect(after.held_usd).toBe(0);
    expect(BigInt(nano(before.balance_usd) - nano(after.balance_usd))).toBe(charged);
  });

  it("output tokens are decided per task from the seed, within the agent's range", async () => {
    const seen = new Set<number>();
    for (let i = 0; i < 12; i++) {
      const created = await postTask(door, ADMIN.enterprise, {
        agent_id: 'agt_bravo',
        description: `Output draw ${i}`,
      });
      door.sandbox.clock.advance('30s');
      const out = (await door.call('GET', `/ext/tasks/${created.json.id}`, { key: ADMIN.enterprise })).json.usage
        .output_tokens;
      expect(out).toBeGreaterThanOrEqual(AGENTS.agt_bravo.outputMin);
      expect(out).toBeLessThanOrEqual(AGENTS.agt_bravo.outputMax);
      seen.add(out);
    }
    expect(seen.size).toBeGreaterThan(1);
  });
});

it("input tokens: about 4 characters a token, rounded up, plus the agent's fixed overhead", async () => {
  const [, open] = DOORS[0];
  const door = await open(OPTIONS);
  try {
    for (const length of [1, 3, 4, 5, 400, 401]) {
      const created = await postTask(door, ADMIN.pro, { agent_id: 'agt_charlie', description: 'q'.repeat(length) });
      door.sandbox.clock.advance('30s');
      const task = (await door.call('GET', `/ext/tasks/${created.json.id}`, { key: ADMIN.pro })).json;
      expect(task.usage.input_tokens, `${length} characters`).toBe(Math.ceil(length / 4) + AGENTS.agt_charlie.overhead);
    }
  } finally {
    await door.close();
  }
});
