/**
 * The assertions of the control API, over HTTP, for suites in any language: `POST /__sandbox/marks`,
 * `POST /__sandbox/verify`, `GET /__sandbox/spend`, `GET /__sandbox/requests/summary`. Snake_case on the wire,
 * errors in the error shape, an unknown pattern key a 400 naming it; the same journal and books as the library's.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { overSocket, type Door } from '../support/doors.js';
import { ADMIN, OPTIONS, postTask } from '../tasks-and-billing/support.js';

let door: Door;
let origin: string;
beforeEach(async () => {
  door = await overSocket(OPTIONS);
  origin = new URL(door.baseUrl).origin;
});
afterEach(() => door.close());

async function control(method: string, path: string, body?: unknown) {
  const res = await fetch(`${origin}/__sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

const TASK = { agent_id: 'agt_fixed', description: 'Summarise the quarterly report' };

/** Before the mark: one usage read. After it: a task created and read back, and a 402 on the free account. */
async function traffic(): Promise<{ mark: string; taskId: string }> {
  await door.call('GET', '/ext/usage', { key: ADMIN.pro });
  const marked = await control('POST', '/marks');
  expect(marked).toEqual({ status: 201, json: { mark: expect.stringMatching(/^mark_[0-9]+$/) } });
  const created = await postTask(door, ADMIN.pro, TASK);
  await door.call('GET', `/ext/tasks/${created.json.id}`, { key: ADMIN.pro });
  await postTask(door, ADMIN.free, TASK);
  return { mark: marked.json.mark, taskId: created.json.id };
}

describe('POST /__sandbox/verify', () => {
  it('counts the requests since a mark that match a pattern (body, query and headers: the fields named)', async () => {
    const { mark } = await traffic();
    expect(mark).toBe('mark_1');
    const verify = (body: unknown) => control('POST', '/verify', body);
    expect(await verify({ pattern: { method: 'POST', path: '/ext/tasks', status: 201 }, since: mark })).toEqual({
      status: 200,
      json: { ok: true, matched: 1, near_misses: [] },
    });
    expect((await verify({ pattern: { path: '/api/v1/ext/tasks/:id' }, count: { eq: 1 } })).json.ok).toBe(true);
    expect((await verify({ pattern: { body: { agent_id: 'agt_fixed' } }, count: { eq: 2 } })).json.ok).toBe(true);
    expect((await verify({ pattern: { path: '/ext/usage' }, count: { eq: 0 }, since: mark })).json.ok).toBe(true);
    expect((await verify({ pattern: { path: '/ext/usage' } })).json).toMatchObject({ ok: true, matched: 1 });
    expect(
      (await verify({ pattern: { headers: { 'content-type': 'application/json' }, account_id: 'acc_free' } })).json,
    ).toMatchObject({ ok: true, matched: 1 });
    expect((await verify({ pattern: { code: 'insufficient_credits' }, count: { gte: 2 } })).json).toEqual({
      ok: false,
      matched: 1,
      near_misses: [],
    });
  });

  it('a miss names the closest requests: request id, the fields that differ, the trace', async () => {
    const { mark } = await traffic();
    const res = await control('POST', '/verify', {
      pattern: { method: 'POST', path: '/ext/tasks', status: 201, account_id: 'acc_free' },
      since: mark,
    });
    expect(res.status).toBe(200);
    expect(res.json.ok).toBe(false);
    expect(res.json.matched).toBe(0);
    expect(res.json.near_misses.slice(0, 2)).toEqual([
      {
        request_id: 'req_000004',
        diff: { status: { expected: 201, actual: 402 } },
        trace: expect.stringMatching(/^key=pass; .*balance=fail; answer=fail \(Estimated cost/),
      },
      {
        request_id: 'req_000002',
        diff: { account_id: { expected: 'acc_free', actual: 'acc_pro' } },
        trace: expect.stringContaining('balance=pass'),
      },
    ]);
    const quoted = await control('POST', '/verify', { pattern: { headers: { authorization: `Bearer ${ADMIN.pro}` } } });
    expect(quoted.json.near_misses[0].diff).toEqual({
      'headers.authorization': { expected: 'Bearer ak_pro_…', actual: 'Bearer ak_free…' },
    });
    expect(JSON.stringify(quoted.json)).not.toContain(ADMIN.pro);
    const entry = door.sandbox.journal.entries().find((e) => e.id === 'req_000004');
    expect(entry?.code).toBe('insufficient_credits');
  });

  it('an unknown pattern key is a 400 naming it, in the error shape; so is a wrong type or an unknown mark', async () => {
    await traffic();
    const refused = (message: string, status = 400, code = 'invalid_request') => ({
      status,
      json: { error: { code, message } },
    });
    expect(await control('POST', '/verify', { pattern: { stauts: 201 } })).toEqual(
      refused("Unknown field 'pattern.stauts' in the request body."),
    );
    expect(await control('POST', '/verify', { pattern: {}, cuont: { eq: 1 } })).toEqual(
      refused("Unknown field 'cuont' in the request body."),
    );
    expect(await control('POST', '/verify', {})).toEqual(refused('pattern: is required.'));
    expect((await control('POST', '/verify', { pattern: { status: '201' } })).json.error.message).toMatch(
      /^pattern\.status: /,
    );
    expect((await control('POST', '/verify', { pattern: {}, count: { eq: -1 } })).status).toBe(400);
    expect(await control('POST', '/verify', { pattern: {}, since: 'mark_9' })).toEqual(
      refused("No mark 'mark_9' (marks are forgotten on reset).", 404, 'not_found'),
    );
    expect(await control('POST', '/marks', { account_id: 'acc_nobody' })).toEqual(
      refused("No account 'acc_nobody'.", 404, 'not_found'),
    );
  });

  it('a mark of one account or key counts only its requests', async () => {
    const own = await control('POST', '/marks', { account_id: 'acc_free' });
    const byKey = await control('POST', '/marks', { key_id: 'key_pro_admin' });
    await traffic();
    const count = async (since: string) =>
      (await control('POST', '/verify', { pattern: {}, since, count: { gte: 0 } })).json.matched;
    expect(await count(own.json.mark)).toBe(1);
    expect(await count(byKey.json.mark)).toBe(3);
  });
});

describe('GET /__sandbox/spend', () => {
  it('the books of the tasks created since a mark: usd, tokens, tasks, by task (snake_case)', async () => {
    const { mark, taskId } = await traffic();
    const held = await control('GET', `/spend?since=${mark}&account_id=acc_pro`);
    expect(held.status).toBe(200);
    expect(held.json).toMatchObject({ tokens: 0, tasks: 1, charged_usd: 0, refunded_usd: 0 });
    expect(held.json.usd).toBe(held.json.held_usd);
    expect(held.json.usd).toBeGreaterThan(0);
    await control('POST', '/clock', { advance: '1m' });
    const task = door.sandbox.tasks.get(taskId)!;
    const spent = await control('GET', `/spend?since=${mark}`);
    expect(spent.json).toEqual({
      usd: task.usage.cost_usd,
      charged_usd: task.usage.cost_usd,
      held_usd: 0,
      refunded_usd: Number((held.json.usd - task.usage.cost_usd).toFixed(9)),
      tokens: task.usage.input_tokens + task.usage.output_tokens,
      tasks: 1,
      by_task: [
        {
          task_id: taskId,
          account_id: 'acc_pro',
          status: 'completed',
          charged_usd: task.usage.cost_usd,
          held_usd: 0,
          refunded_usd: Number((held.json.usd - task.usage.cost_usd).toFixed(9)),
          tokens: task.usage.input_tokens + task.usage.output_tokens,
        },
      ],
    });
    expect((await control('GET', `/spend?account_id=acc_free`)).json).toMatchObject({ usd: 0, tasks: 0, by_task: [] });
    expect(await control('GET', '/spend?sinse=mark_1')).toEqual({
      status: 400,
      json: { error: { code: 'invalid_request', message: "Unknown field 'sinse' in the query." } },
    });
  });
});

describe('GET /__sandbox/requests/summary', () => {
  it("is the library's summary: ids numbered, keys masked, no times", async () => {
    const { mark } = await traffic();
    await door.call('GET', `/ext/agents?api_key=${ADMIN.pro}`);
    const res = await control('GET', `/requests/summary?since=${mark}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: door.sandbox.journal.summary({ since: mark }) });
    expect(res.json.data.map((l: { path: string }) => l.path)).toEqual([
      '/api/v1/ext/tasks',
      '/api/v1/ext/tasks/:id',
      '/api/v1/ext/tasks',
      '/api/v1/ext/agents?api_key=ak_…',
    ]);
    expect(JSON.stringify(res.json)).not.toContain('ak_pro');
    expect((await control('GET', '/requests/summary?account_id=acc_free')).json.data).toEqual([
      { method: 'POST', path: '/api/v1/ext/tasks', status: 402, code: 'insufficient_credits' },
    ]);
  });
});

it("the journal over the control API: each request's latency_ms, a latency scenario's delay as given (12.5 ms), 0 without", async () => {
  door.sandbox.useScenario('latency', { ms: 12.5, accountId: 'acc_pro' });
  await door.call('GET', '/ext/usage', { key: ADMIN.pro });
  await door.call('GET', '/ext/usage', { key: ADMIN.free });
  const listed = await control('GET', '/requests');
  expect(listed.status).toBe(200);
  const latencies = (listed.json.data as { account_id: string; latency_ms: number }[]).map((e) => [
    e.account_id,
    e.latency_ms,
  ]);
  expect(latencies).toEqual([
    ['acc_pro', 12.5],
    ['acc_free', 0],
  ]);
});
