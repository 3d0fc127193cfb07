/**
 * `sandbox.mark()`, `sandbox.journal.summary()` and the matchers of what a client sent and spent, from the source in
 * Vitest, through each door (msw handlers, `sandbox.fetch`, the server): the journal and the books are the same
 * whichever door a request came through. Jest: the consumer suites (test/package/consumer*).
 */
import { describe, expect, it } from 'vitest';
import { sandboxMatchers, auditMatchers, type SandboxMatchers } from '../../src/matchers.js';
import type { Door } from '../support/doors.js';
import { ADMIN, eachDoor, postTask } from '../tasks-and-billing/support.js';

declare module 'vitest' {
  interface Assertion<T> extends SandboxMatchers<T> {}
}
expect.extend(sandboxMatchers);

const TASK = { agent_id: 'agt_fixed', description: 'Summarise the quarterly report' };

/** A client's morning: it lists two agents, creates a task, reads it back, and a free account runs out of credits. */
async function morning(door: Door) {
  await door.call('GET', '/ext/agents?limit=2', { key: ADMIN.pro });
  const created = await postTask(door, ADMIN.pro, TASK);
  await door.call('GET', `/ext/tasks/${created.json.id}`, { key: ADMIN.pro });
  await postTask(door, ADMIN.free, TASK);
  return created.json as { id: string };
}

describe('toHaveReceived: counts the requests that match a pattern', () => {
  for (const [name, run] of eachDoor('matches method, path template, query, headers, body, status', async (door) => {
    const { sandbox } = door;
    await door.call('GET', '/ext/usage', { key: ADMIN.pro });
    const mark = sandbox.mark();
    const task = await morning(door);
    expect(sandbox).toHaveReceived({ method: 'post', path: '/ext/tasks', status: 201 }, { times: 1, since: mark });
    expect(sandbox).toHaveReceived({ path: '/api/v1/ext/tasks/:id', accountId: 'acc_pro' }, { times: 1 });
    expect(sandbox).toHaveReceived({ path: /\/ext\/tasks\/task_/, status: 200, code: null });
    expect(sandbox).toHaveReceived({ query: { limit: '2' }, keyId: 'key_pro_admin' });
    expect(sandbox).toHaveReceived(
      { headers: { 'Content-Type': expect.stringContaining('json') }, body: expect.objectContaining(TASK) },
      { times: 2 },
    );
    expect(sandbox).toHaveReceived({ code: 'insufficient_credits', accountId: 'acc_free' }, { atLeast: 1, atMost: 1 });
    expect(sandbox).toHaveReceived({ path: '/ext/usage' }, { times: 1 });
    expect(sandbox).toHaveReceived({ path: '/ext/usage' }, { times: 0, since: mark });
    expect(sandbox).not.toHaveReceived({ path: `/ext/tasks/${task.id}`, method: 'DELETE' });
  }))
    it(name, run);

  for (const [name, run] of eachDoor(
    'on failure: the pattern, the near misses field by field, request id, trace',
    async (door) => {
      await morning(door);
      let message = '';
      try {
        expect(door.sandbox).toHaveReceived({ method: 'POST', path: '/ext/tasks', status: 201, accountId: 'acc_free' });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain('to have received at least 1 request matching');
      expect(message).toContain('"accountId": "acc_free"');
      expect(message).toContain('but it received 0 matching requests (of 4 in scope)');
      expect(message).toMatch(
        /- req_000004 POST \/api\/v1\/ext\/tasks → 402 insufficient_credits\n {6}status: expected 201, received 402\n {6}trace: key=pass; .*balance=fail; answer=fail \(Estimated cost/,
      );
      expect(message).toMatch(
        /- req_000002 POST \/api\/v1\/ext\/tasks → 201\n {6}accountId: expected "acc_free", received "acc_pro"/,
      );
    },
  ))
    it(name, run);

  it('an unknown pattern key or option throws: no assertion passes without checking', async () => {
    const [, run] = eachDoor('', async (door) => {
      await morning(door);
      const sandbox = door.sandbox;
      expect(() => expect(sandbox).toHaveReceived({ stauts: 201 } as never)).toThrow(
        "Unknown key 'stauts' in the request pattern. A pattern takes: method, path, query, headers, body, status, code, accountId, keyId.",
      );
      expect(() => expect(sandbox).not.toHaveReceived({ stauts: 201 } as never)).toThrow(/Unknown key 'stauts'/);
      expect(() => expect(sandbox).toHaveReceived({ status: 201 }, { time: 1 } as never)).toThrow(/unknown key 'time'/);
      expect(() => expect(sandbox).toHaveReceived({ status: 201 }, { times: '1' } as never)).toThrow(
        'toHaveReceived: times is a whole number ≥ 0; got "1".',
      );
      expect(() => expect(sandbox).toHaveReceivedInOrder([{ status: 201 }, { pth: '/' } as never])).toThrow(
        /Unknown key 'pth' in the request pattern #2/,
      );
      expect(() => expect(sandbox).toHaveReceivedOnly([{ methd: 'GET' } as never])).toThrow(/Unknown key 'methd'/);
      expect(() => expect(sandbox).toHaveSpent({ dollars: 1 } as never)).toThrow(/unknown key 'dollars'/);
      expect(() => expect(sandbox).toHaveSpent({})).toThrow(/name at least one of usd, tokens, tasks/);
      expect(() => expect(sandbox).toHaveSpent({ usd: { lt: 1 } } as never)).toThrow(/unknown key 'lt'/);
      expect(() => expect(42).toHaveReceived({})).toThrow(TypeError);
    })[0]!;
    await run();
  });
});

it('a failure message shows no API key: the journal keeps them masked, and so is a key quoted in a pattern', async () => {
  const [, run] = eachDoor('', async (door) => {
    await door.call('GET', `/ext/agents?api_key=${ADMIN.pro}`);
    await morning(door);
    const message = (() => {
      try {
        expect(door.sandbox).toHaveReceived({ headers: { authorization: `Bearer ${ADMIN.pro}` } });
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    })();
    expect(message).toContain('headers.authorization: expected "Bearer ak_pro_…", received "Bearer ak_pro_…"');
    expect(message).toContain('headers.authorization: expected "Bearer ak_pro_…", received "Bearer ak_free…"');
    expect(message).not.toContain(ADMIN.pro);
    expect(door.sandbox).toHaveReceived({ headers: { authorization: 'Bearer ak_pro_…' } }, { times: 3 });
  })[1]!;
  await run();
});

describe('toHaveReceivedInOrder and toHaveReceivedOnly', () => {
  for (const [name, run] of eachDoor('order with others between; only these and nothing else', async (door) => {
    const { sandbox } = door;
    const mark = sandbox.mark();
    await morning(door);
    const create = { method: 'POST', path: '/ext/tasks' };
    const read = { method: 'GET', path: '/ext/tasks/:id' };
    expect(sandbox).toHaveReceivedInOrder([{ path: '/ext/agents' }, create, read, create], { since: mark });
    expect(sandbox).not.toHaveReceivedInOrder([read, { ...create, status: 201 }]);
    expect(() => expect(sandbox).toHaveReceivedInOrder([read, { ...create, status: 201 }])).toThrow(
      /no request after req_000003 matches #2 \(1 pattern found in order, of 4 requests in scope\)\.\nClosest requests .*\n {2}- req_000004 POST \/api\/v1\/ext\/tasks → 402 insufficient_credits\n {6}status: expected 201, received 402/,
    );
    expect(sandbox).toHaveReceivedOnly([create, read, { path: '/ext/agents' }], { since: mark });
    expect(sandbox).toHaveReceivedOnly([create, read], { since: mark, keyId: 'key_free_admin' });
    expect(() => expect(sandbox).toHaveReceivedOnly([create, read])).toThrow(
      /but 1 request of 4 matched none .*:\n {2}- req_000001 GET \/api\/v1\/ext\/agents\?limit=2 → 200\n {6}path: expected "\/ext\/tasks\/:id", received "\/api\/v1\/ext\/agents"\n {6}trace: key=pass/,
    );
    const later = sandbox.mark();
    expect(sandbox).toHaveReceivedOnly([], { since: later });
  }))
    it(name, run);
});

describe('toHaveSpent: the books, charged, held and refunded', () => {
  for (const [name, run] of eachDoor(
    'held while the task runs, charged when it completes, per task on failure',
    async (door) => {
      const { sandbox } = door;
      const mark = sandbox.mark({ accountId: 'acc_pro' });
      const task = await morning(door);
      const held = sandbox.tasks.get(task.id)!;
      const hold = sandbox.spend({ since: mark }).heldUsd;
      expect(hold).toBeGreaterThan(0);
      expect(held.usage.cost_usd).toBe(0);
      expect(sandbox).toHaveSpent({ usd: hold, tokens: 0, tasks: 1 }, { since: mark });
      expect(sandbox).toHaveSpent({ tasks: 0 }, { accountId: 'acc_free', since: sandbox.mark() });
      sandbox.clock.advance('1m');
      const done = sandbox.tasks.get(task.id)!;
      expect(done.status).toBe('completed');
      const charged = done.usage.cost_usd;
      expect(sandbox).toHaveSpent(
        { usd: charged, tokens: done.usage.input_tokens + 800, tasks: { gte: 1, lte: 1 } },
        { since: mark },
      );
      expect(sandbox).toHaveSpent({ usd: { lte: charged } }, { accountId: 'acc_pro' });
      expect(sandbox.spend({ since: mark }).byTask).toEqual([
        {
          taskId: task.id,
          accountId: 'acc_pro',
          status: 'completed',
          chargedUsd: charged,
          heldUsd: 0,
          refundedUsd: Number((hold - charged).toFixed(9)),
          tokens: done.usage.input_tokens + 800,
        },
      ]);
      expect(() => expect(sandbox).toHaveSpent({ usd: { lte: charged / 2 } }, { since: mark })).toThrow(
        new RegExp(
          `to have spent usd ≤ ${charged / 2}, but it spent \\$${charged} \\(charged \\$${charged}, held \\$0, refunded \\$[0-9.]+\\), [0-9]+ tokens, 1 task, made of:\\n {2}- ${task.id} \\(acc_pro, completed\\): charged \\$${charged}`,
        ),
      );
      expect(sandbox).not.toHaveSpent({ tasks: 2 }, { since: mark });
    },
  ))
    it(name, run);

  it('a failed task gives its whole hold back', async () => {
    const [, run] = eachDoor('', async (door) => {
      const { sandbox } = door;
      const mark = sandbox.mark();
      const task = await morning(door);
      const hold = sandbox.spend({ since: mark }).usd;
      sandbox.tasks.fail(task.id);
      expect(sandbox).toHaveSpent({ usd: 0, tokens: 0, tasks: 1 }, { since: mark });
      expect(sandbox.spend({ since: mark })).toMatchObject({ chargedUsd: 0, heldUsd: 0, refundedUsd: hold });
    })[2]!;
    await run();
  });
});

describe('sandbox.journal.summary: a stable list for a snapshot', () => {
  it('method, path template and status; ids numbered, keys masked, no times; the same on every door and seed', async () => {
    const summaries: unknown[] = [];
    for (const [, run] of eachDoor('', async (door) => {
      const mark = door.sandbox.mark();
      await morning(door);
      await door.call('GET', `/ext/agents?api_key=${ADMIN.pro}`);
      summaries.push(door.sandbox.journal.summary({ since: mark }));
    }))
      await run();
    expect(summaries[0]).toEqual([
      { method: 'GET', path: '/api/v1/ext/agents?limit=2', status: 200, code: null },
      { method: 'POST', path: '/api/v1/ext/tasks', status: 201, code: null },
      { method: 'GET', path: '/api/v1/ext/tasks/:id', status: 200, code: null },
      { method: 'POST', path: '/api/v1/ext/tasks', status: 402, code: 'insufficient_credits' },
      { method: 'GET', path: '/api/v1/ext/agents?api_key=ak_…', status: 401, code: 'missing_api_key' },
    ]);
    expect(summaries[1]).toEqual(summaries[0]);
    expect(summaries[2]).toEqual(summaries[0]);
    expect(JSON.stringify(summaries)).not.toMatch(/ak_[a-z]{2}|T[0-9]{2}:/);
  });

  it('numbers the drawn ids in the order they appear, so a snapshot does not depend on the seed', async () => {
    const [, run] = eachDoor('', async (door) => {
      const first = await postTask(door, ADMIN.pro, TASK);
      await door.call('GET', `/ext/tasks/${first.json.id}x`, { key: ADMIN.pro });
      await door.call('GET', `/ext/agents/${first.json.id}`, { key: ADMIN.pro });
      expect(door.sandbox.journal.summary().map((l) => l.path)).toEqual([
        '/api/v1/ext/tasks',
        '/api/v1/ext/tasks/:id',
        '/api/v1/ext/agents/:id',
      ]);
      expect(door.sandbox.journal.summary({ accountId: 'acc_free' })).toEqual([]);
    })[1]!;
    await run();
  });
});

it('auditMatchers stays as the same object under its first name', () => {
  expect(auditMatchers).toBe(sandboxMatchers);
  expect(Object.keys(sandboxMatchers).sort()).toEqual([
    'toHaveCleanAudit',
    'toHaveReceived',
    'toHaveReceivedInOrder',
    'toHaveReceivedOnly',
    'toHaveSpent',
  ]);
});
