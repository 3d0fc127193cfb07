// The assertion matchers from the packed tarball, as a consumer's suite uses them: every matcher passing, and one
// failing case per matcher whose message is checked. Shared by audit.vitest.test.mjs and audit.jest.test.cjs.
const BASE = 'https://api.agent-work.example/api/v1';

module.exports = function assertionCases({ describe, it, expect, sandbox }) {
  const key = () => sandbox.keys.list('acc_demo').find((k) => k.label === 'admin').key;

  /** Lists the agents, creates a task on the first one, reads it back; returns the task's id. */
  async function client() {
    const headers = { Authorization: `Bearer ${key()}`, 'Content-Type': 'application/json' };
    const agents = await (await fetch(`${BASE}/ext/agents?limit=1`, { headers })).json();
    const body = JSON.stringify({ agent_id: agents.data[0].id, description: 'Write the release notes' });
    const task = await (await fetch(`${BASE}/ext/tasks`, { method: 'POST', headers, body })).json();
    await fetch(`${BASE}/ext/tasks/${task.id}`, { headers });
    return task.id;
  }

  const failure = (run) => {
    try {
      run();
    } catch (error) {
      return error.message;
    }
    throw new Error('the assertion did not fail');
  };

  describe('assertion matchers', () => {
    it('pass on what the client sent and spent', async () => {
      const mark = sandbox.mark({ accountId: 'acc_demo' });
      const taskId = await client();
      const create = { method: 'POST', path: '/ext/tasks', status: 201 };
      const read = { method: 'GET', path: '/api/v1/ext/tasks/:id' };
      expect(sandbox).toHaveReceived(
        { ...create, body: expect.objectContaining({ description: 'Write the release notes' }) },
        { times: 1, since: mark },
      );
      expect(sandbox).toHaveReceived({ query: { limit: '1' }, headers: { authorization: expect.any(String) } });
      expect(sandbox).toHaveReceivedInOrder([{ path: '/ext/agents' }, create, read], { since: mark });
      expect(sandbox).toHaveReceivedOnly([{ path: '/ext/agents' }, create, read], { since: mark });
      expect(sandbox).toHaveSpent({ tasks: 1, tokens: 0, usd: { gte: 0.000001, lte: 5 } }, { since: mark });
      sandbox.clock.advance('10m');
      const done = sandbox.tasks.get(taskId);
      expect(sandbox).toHaveSpent({ usd: done.usage.cost_usd, tasks: 1 }, { accountId: 'acc_demo', since: mark });
      expect(sandbox.journal.summary({ since: mark })).toEqual([
        { method: 'GET', path: '/api/v1/ext/agents?limit=1', status: 200, code: null },
        { method: 'POST', path: '/api/v1/ext/tasks', status: 201, code: null },
        { method: 'GET', path: '/api/v1/ext/tasks/:id', status: 200, code: null },
      ]);
    });

    it('fail with the closest requests, their request id, the fields that differ and the trace', async () => {
      const taskId = await client();
      expect(failure(() => expect(sandbox).toHaveReceived({ method: 'POST', status: 202 }))).toMatch(
        /but it received 0 matching requests \(of 3 in scope\)\.\nClosest requests.*\n {2}- req_000002 POST \/api\/v1\/ext\/tasks → 201\n {6}status: expected 202, received 201\n {6}trace: key=pass; rate=pass; /,
      );
      expect(
        failure(() => expect(sandbox).toHaveReceivedInOrder([{ method: 'POST' }, { path: '/ext/agents' }])),
      ).toMatch(
        /but no request after req_000002 matches #2 .*\n.*\n {2}- req_000003 GET \/api\/v1\/ext\/tasks\/task_\w+ → 200\n {6}path: expected "\/ext\/agents"/,
      );
      expect(failure(() => expect(sandbox).toHaveReceivedOnly([{ method: 'GET' }]))).toMatch(
        /but 1 request of 3 matched none .*:\n {2}- req_000002 POST \/api\/v1\/ext\/tasks → 201\n {6}method: expected "GET", received "POST"/,
      );
      expect(failure(() => expect(sandbox).toHaveSpent({ tasks: 0 }))).toMatch(
        new RegExp(
          `to have spent tasks = 0, but it spent \\$[0-9.]+ \\(charged \\$0, held \\$[0-9.]+, refunded \\$0\\), 0 tokens, 1 task, made of:\\n {2}- ${taskId} \\(acc_demo, queued\\): charged \\$0, held \\$[0-9.]+`,
        ),
      );
    });

    it('throw on a pattern key they do not know, instead of passing', async () => {
      await client();
      expect(() => expect(sandbox).toHaveReceived({ stauts: 201 })).toThrow(/Unknown key 'stauts'/);
      expect(() => expect(sandbox).not.toHaveReceivedOnly([{ methd: 'GET' }])).toThrow(/Unknown key 'methd'/);
      expect(() => expect(sandbox).toHaveSpent({ dollars: 1 })).toThrow(/unknown key 'dollars'/);
    });
  });
};
