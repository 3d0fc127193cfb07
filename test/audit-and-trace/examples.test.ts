/**
 * examples/clients: the reference client and the naive one run the same session against the sandbox (a rate limit,
 * an outage, a task to wait for, an empty balance); the audit has no finding for the first and names what the second
 * gets wrong.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { NaiveClient } from '../../examples/clients/naive-client.mjs';
import { ReferenceClient } from '../../examples/clients/reference-client.mjs';
import { auditMatchers, type AuditMatchers } from '../../src/matchers.js';
import { IN_PROCESS_BASE, inProcess, type Door } from '../support/doors.js';
import { ADMIN, OPTIONS } from '../tasks-and-billing/support.js';

declare module 'vitest' {
  interface Assertion<T> extends AuditMatchers<T> {}
}
expect.extend(auditMatchers);

let door: Door;
afterEach(() => door?.close());

const TASK = { agent_id: 'agt_fixed', description: 'Summarise the quarterly report.' };

interface Client {
  listAgents(limit?: number): Promise<unknown>;
  createTask(task: unknown): Promise<{ id: string }>;
  waitForTask(id: string): Promise<{ status: string }>;
}

/** The session: the sandbox plays the server's part; `sleep` moves its clock (and ends the outage). */
async function session(
  make: (options: { baseUrl: string; apiKey: string; sleep: (ms: number) => Promise<void> }) => Client,
) {
  door = inProcess(OPTIONS);
  const { sandbox } = door;
  let whileWaiting: (() => void) | undefined;
  const client = make({
    baseUrl: IN_PROCESS_BASE,
    apiKey: ADMIN.pro,
    sleep: (ms) => {
      whileWaiting?.();
      sandbox.clock.advance(ms);
      return Promise.resolve();
    },
  });
  await client.listAgents(3);

  // A rate limit of 4 requests a minute, and 6 requests to make.
  sandbox.clock.advance(60_000);
  sandbox.accounts.update('acc_pro', { limits: { rpm: 4 } });
  for (let i = 0; i < 6; i++) await client.listAgents(1).catch(() => undefined);
  sandbox.accounts.update('acc_pro', { limits: { rpm: null } });
  sandbox.clock.advance(60_000);

  // An outage that ends while the client waits (or after it gives up, and the task is sent again).
  const endOutage = sandbox.useScenario('unavailable', { accountId: 'acc_pro' });
  whileWaiting = endOutage;
  const first = await client.createTask(TASK).catch(() => undefined);
  endOutage();
  whileWaiting = undefined;
  const task = first ?? (await client.createTask(TASK));

  expect((await client.waitForTask(task.id)).status).toBe('completed');

  // No credit left.
  sandbox.accounts.update('acc_pro', { balanceUsd: 0.000001 });
  await expect(client.createTask(TASK)).rejects.toThrow(/402|insufficient_credits/);
  return sandbox;
}

describe('examples/clients', () => {
  it('the reference client leaves no finding', async () => {
    const sandbox = await session((o) => new ReferenceClient(o));
    expect(sandbox.audit()).toEqual([]);
    expect(sandbox).toHaveCleanAudit({ severity: 'info' });
  });

  it('the naive client breaks seven rules, four of them errors', async () => {
    const sandbox = await session((o) => new NaiveClient(o));
    expect(sandbox.audit().map((f) => `${f.severity} ${f.rule}`)).toEqual([
      'error retry-before-reset',
      'error retry-after-503-ignored',
      'error unsafe-post-retry',
      'error key-in-url',
      'warning polling-storm',
      'warning ignored-402',
      'warning missing-content-type',
    ]);
    expect(sandbox).not.toHaveCleanAudit();
  });
});
