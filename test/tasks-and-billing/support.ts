/** Fixtures and helpers shared by the task and billing tests: agents with known token behaviour, one account per plan. */
import type { FixtureSet, PlanId, StateSnapshot } from '../../src/index.js';
import type { SandboxOptions } from '../../src/index.js';
import { DOORS, type Answer, type Door } from '../support/doors.js';

export const PLANS_UNDER_TEST: PlanId[] = ['free', 'starter', 'pro', 'enterprise'];

/** Token behaviour of the fixture agents (the sandbox keeps it internal; the tests know it from the fixtures). */
export const AGENTS = {
  agt_alpha: { model: 'model-a', overhead: 120, outputMin: 300, outputMax: 1_200 },
  agt_bravo: { model: 'model-b', overhead: 80, outputMin: 500, outputMax: 2_500 },
  agt_charlie: { model: 'model-c', overhead: 200, outputMin: 100, outputMax: 900 },
  /** Output always 800 tokens: its cost is known before it runs. */
  agt_fixed: { model: 'model-b', overhead: 40, outputMin: 800, outputMax: 800 },
} as const;
export type AgentId = keyof typeof AGENTS;

/** `ak_…` of the admin key of `acc_<plan>`. */
export const ADMIN: Record<PlanId, string> = {
  free: 'ak_free_admin_0000000000000000000000',
  starter: 'ak_starter_admin_00000000000000000000',
  pro: 'ak_pro_admin_000000000000000000000000',
  enterprise: 'ak_enterprise_admin_00000000000000000',
};
export const PRO_READ_TASKS = 'ak_pro_read_tasks_0000000000000000000';
export const PRO_WRITE_TASKS = 'ak_pro_write_tasks_000000000000000000';

export function taskFixtures(): FixtureSet {
  return {
    name: 'tasks-test',
    accounts: PLANS_UNDER_TEST.map((plan) => ({ id: `acc_${plan}`, name: `The ${plan} account`, plan })),
    keys: [
      ...PLANS_UNDER_TEST.map((plan) => ({
        id: `key_${plan}_admin`,
        key: ADMIN[plan],
        account_id: `acc_${plan}`,
        scopes: ['admin' as const],
        label: 'admin',
      })),
      {
        id: 'key_pro_read_tasks',
        key: PRO_READ_TASKS,
        account_id: 'acc_pro',
        scopes: ['read:tasks'],
        label: 'read:tasks',
      },
      {
        id: 'key_pro_write_tasks',
        key: PRO_WRITE_TASKS,
        account_id: 'acc_pro',
        scopes: ['write:tasks'],
        label: 'write:tasks',
      },
    ],
    agents: Object.entries(AGENTS).map(([id, a], i) => ({
      id,
      name: `Agent ${id.slice(4)}`,
      description: `Test agent ${i}`,
      capabilities: ['testing'],
      model: a.model,
      status: 'available' as const,
      created_at: `2025-0${i + 1}-01T00:00:00.000Z`,
      tokens: { overhead: a.overhead, output_min: a.outputMin, output_max: a.outputMax },
    })),
  };
}

/** A manual-clock sandbox on the test fixtures (2026-01-10T00:00:00Z, mid-period). */
export const OPTIONS: SandboxOptions = {
  clock: 'manual',
  now: '2026-01-10T00:00:00.000Z',
  seed: 7,
  fixtures: taskFixtures(),
};

/** Input tokens as CONTRACT §4 states them: about 4 characters a token, plus the agent's fixed overhead. */
export function expectedInputTokens(description: string, agent: AgentId): number {
  return Math.ceil(description.length / 4) + AGENTS[agent].overhead;
}

/** USD number of the API → integer nano-dollars (the numbers the sandbox sends are whole nano-dollars). */
export function nano(usd: number): number {
  return Math.round(usd * 1e9);
}

/** Runs `fn` on a fresh door of each kind, one at a time (msw's in-process interception must not overlap a socket). */
export function eachDoor(name: string, fn: (door: Door) => Promise<void>, options: SandboxOptions = OPTIONS) {
  return DOORS.map(
    ([kind, open]) =>
      [
        `${name} (${kind})`,
        async () => {
          const door = await open(options);
          try {
            await fn(door);
          } finally {
            await door.close();
          }
        },
      ] as const,
  );
}

export async function postTask(
  door: Door,
  key: string,
  body: unknown,
  headers?: Record<string, string>,
): Promise<Answer> {
  return door.call('POST', '/ext/tasks', { key, body, headers });
}

/**
 * The state a failed request must leave alone: everything but the request counters (every authenticated request counts
 * against RPM and in the usage's request figures, whatever its answer).
 */
export function moneyAndTasks(snapshot: StateSnapshot) {
  return {
    accounts: snapshot.accounts.map(({ usage: { requests: _r, byEndpoint: _b, ...figures }, ...account }) => ({
      ...account,
      figures,
    })),
    tasks: snapshot.tasks,
    idempotency: snapshot.idempotency,
    counters: snapshot.counters,
    tokensInWindow: snapshot.buckets.filter(([, b]) => b.tokens > 0).map(([id, b]) => [id, b.tokens]),
  };
}
