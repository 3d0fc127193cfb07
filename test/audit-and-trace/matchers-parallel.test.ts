/**
 * Assertions are parallel-safe: two tests running at the same time on one sandbox, each on its own account, scope
 * their mark to it and see only their own requests and tasks. The tests meet half-way (each waits for the other's
 * first requests), so their traffic interleaves in the journal; a mark without a scope sees both.
 */
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { sandboxMatchers, type SandboxMatchers } from '../../src/matchers.js';
import { OPTIONS } from '../tasks-and-billing/support.js';

declare module 'vitest' {
  interface Assertion<T> extends SandboxMatchers<T> {}
}
expect.extend(sandboxMatchers);

const sandbox = createSandbox(OPTIONS);
const BASE = 'https://agent-work.test/api/v1';
const everything = sandbox.mark();

/** Resolves once `n` callers have arrived: each test waits here for the other, so both are under way at once. */
function meeting(n: number): () => Promise<void> {
  let arrived = 0;
  let open: () => void = () => {};
  const all = new Promise<void>((resolve) => (open = resolve));
  return () => {
    arrived += 1;
    if (arrived === n) open();
    return all;
  };
}
const halfway = meeting(2);

async function client(tasks: number) {
  const { account, key } = sandbox.accounts.create({ plan: 'pro', balanceUsd: 50 });
  const mark = sandbox.mark({ accountId: account.id });
  const headers = { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' };
  await sandbox.fetch(`${BASE}/ext/agents`, { headers });
  await halfway();
  for (let i = 0; i < tasks; i++) {
    const body = JSON.stringify({ agent_id: 'agt_fixed', description: `Task ${i} of ${account.id}` });
    const res = await sandbox.fetch(`${BASE}/ext/tasks`, { method: 'POST', headers, body });
    expect(res.status).toBe(201);
    await Promise.resolve();
  }
  return { accountId: account.id, keyId: key.id, mark };
}

describe.concurrent('two tests at once on two accounts', () => {
  for (const tasks of [1, 3]) {
    it(`the one creating ${tasks} task(s) sees only its own traffic and spend`, async () => {
      const { accountId, keyId, mark } = await client(tasks);
      expect(sandbox).toHaveReceived({ method: 'POST', path: '/ext/tasks' }, { times: tasks, since: mark });
      expect(sandbox).toHaveReceivedOnly([{ path: '/ext/agents' }, { path: '/ext/tasks', status: 201 }], {
        since: mark,
      });
      expect(sandbox).toHaveReceived({ keyId }, { times: tasks + 1, since: mark });
      expect(sandbox).toHaveReceivedInOrder([{ path: '/ext/agents' }, { method: 'POST' }], { since: mark });
      expect(sandbox).toHaveSpent({ tasks, tokens: 0, usd: { gte: 0.000001 } }, { since: mark });
      expect(sandbox).toHaveSpent({ tasks }, { accountId, since: everything });
      expect(sandbox.journal.summary({ since: mark })).toHaveLength(tasks + 1);
    });
  }
});

it('without a scope, a mark sees both tests: the scope is what kept them apart', () => {
  expect(sandbox).toHaveReceived({ method: 'POST', path: '/ext/tasks' }, { times: 4, since: everything });
  expect(sandbox).toHaveSpent({ tasks: 4 }, { since: everything });
  const accounts = new Set(sandbox.journal.entries({ since: everything }).map((e) => e.accountId));
  expect(accounts.size).toBe(2);
  const order = sandbox.journal.entries({ since: everything }).map((e) => e.accountId);
  // Interleaved: the second account's first request comes before the first account's last one.
  expect(order.indexOf(order.at(-1)!)).toBeLessThan(order.lastIndexOf(order[0]!));
});
