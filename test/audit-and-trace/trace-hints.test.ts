/**
 * Traces that say what to change: X-Sandbox-Request-Id on every answer, the header summary's reasons and figures,
 * "never fits at this limit", the near-miss hints, the header and query steps, and the values of X-Sandbox-Explain.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { DOORS, viaFetch, type Door } from '../support/doors.js';
import { ADMIN, OPTIONS, postTask } from '../tasks-and-billing/support.js';

const TASK = { agent_id: 'agt_fixed', description: 'Summarise the quarterly report.' };
const EXPLAIN = { 'X-Sandbox-Explain': 'yes' };
const lastTrace = (door: Door) => door.sandbox.requests.at(-1)!.trace;
const stepOf = (door: Door, name: string) => lastTrace(door).find((s) => s.step === name);

describe('X-Sandbox-Request-Id', () => {
  it.each(DOORS)('is on every answer of the %s door, errors too, and names its journal entry', async (_name, open) => {
    const door = await open(OPTIONS);
    try {
      const answers = [
        await door.call('GET', '/ext/agents', { key: ADMIN.pro }),
        await door.call('GET', '/ext/agents'),
        await door.call('GET', '/ext/nothing', { key: ADMIN.pro }),
        await postTask(door, ADMIN.pro, { agent_id: 'agt_fixed' }),
      ];
      const ids = answers.map((a) => a.headers.get('x-sandbox-request-id'));
      expect(ids).toEqual(door.sandbox.requests.map((e) => e.id));
      expect(ids).toEqual(['req_000001', 'req_000002', 'req_000003', 'req_000004']);
    } finally {
      await door.close();
    }
  });

  it("is on the answer of a handler of the user's own, equal to the entry that records it", async () => {
    const door = viaFetch({
      ...OPTIONS,
      handlers: [http.get('*/api/v1/custom', () => HttpResponse.json({ ok: true }))],
    });
    const answer = await door.call('GET', '/custom', { key: ADMIN.pro });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-sandbox-request-id')).toBe(door.sandbox.requests.at(-1)!.id);
  });
});

describe('X-Sandbox-Explain', () => {
  it('accepts 1, true and yes (any case); other values add nothing', async () => {
    const door = viaFetch(OPTIONS);
    for (const value of ['1', 'true', 'TRUE', 'yes', 'Yes'])
      expect(
        (await door.call('GET', '/ext/usage', { key: ADMIN.pro, headers: { 'X-Sandbox-Explain': value } })).headers.get(
          'x-sandbox-trace',
        ),
        value,
      ).toMatch(/^key=pass; rate=pass/);
    for (const value of ['0', 'no', 'false', ''])
      expect(
        (await door.call('GET', '/ext/usage', { key: ADMIN.pro, headers: { 'X-Sandbox-Explain': value } })).headers.get(
          'x-sandbox-trace',
        ),
        value,
      ).toBeNull();
  });
});

describe('the header summary carries the failing step reason and figures', () => {
  it('key=fail with its reason; rate=fail with the reset; balance=fail with what is needed and spendable', async () => {
    const door = viaFetch(OPTIONS);
    const missing = await door.call('GET', '/ext/usage', { headers: EXPLAIN });
    expect(missing.headers.get('x-sandbox-trace')).toMatch(
      /^key=fail missing; rate=pass 1\/60; answer=401 missing_api_key$/,
    );
    const unknown = await door.call('GET', '/ext/usage', {
      key: 'ak_wrong_key_000000000000000000000',
      headers: EXPLAIN,
    });
    expect(unknown.headers.get('x-sandbox-trace')).toContain('key=fail unknown;');
    door.sandbox.accounts.update('acc_pro', { balanceUsd: 0.0001, limits: { rpm: 1 } });
    const poor = await postTask(door, ADMIN.pro, TASK, EXPLAIN);
    expect(poor.headers.get('x-sandbox-trace')).toContain('balance=fail need=$0.00044064 spendable=$0.0001;');
    const limited = await door.call('GET', '/ext/usage', { key: ADMIN.pro, headers: EXPLAIN });
    expect(limited.headers.get('x-sandbox-trace')).toBe(
      'key=pass; rate=fail 1/1 reset=2026-01-10T00:01:00.000Z; answer=429 rate_limit_exceeded',
    );
  });

  it('tpm=fail reads as over the limit: what the task needs and what is left', async () => {
    const door = viaFetch(OPTIONS);
    door.sandbox.accounts.update('acc_pro', { limits: { tpm: 1500 } });
    await postTask(door, ADMIN.pro, TASK);
    const refused = await postTask(door, ADMIN.pro, TASK, EXPLAIN);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-sandbox-trace')).toContain('tpm=fail need=848 left=652/1500;');
    expect(refused.json.error.message).not.toContain('never fits');
  });
});

describe('a task that needs more tokens than the TPM limit', () => {
  it('never fits at this limit: the trace and the 429 message say so', async () => {
    const door = viaFetch(OPTIONS);
    door.sandbox.accounts.update('acc_pro', { limits: { tpm: 500 } });
    const refused = await postTask(door, ADMIN.pro, TASK, EXPLAIN);
    expect(refused.status).toBe(429);
    expect(refused.json.error.message).toContain(
      'more than the whole limit of 500 tokens per minute: it never fits at this limit',
    );
    expect(refused.headers.get('x-sandbox-trace')).toContain('tpm=fail need=848 left=500/500 never-fits;');
    expect(stepOf(door, 'tpm')).toMatchObject({
      outcome: 'fail',
      figures: { needed: 848, tpm: 500, never_fits: true },
    });
    expect(stepOf(door, 'tpm')!.detail).toContain('it never fits at this limit');
  });
});

describe('near-miss hints', () => {
  it('a key in the query string: the key step says to send it in the Authorization header', async () => {
    const door = viaFetch(OPTIONS);
    const answer = await door.call('GET', `/ext/agents?api_key=${ADMIN.pro}`, { headers: EXPLAIN });
    expect(answer.status).toBe(401);
    expect(stepOf(door, 'key')).toMatchObject({ outcome: 'fail', figures: { reason: 'in-query' } });
    expect(stepOf(door, 'key')!.detail).toContain('one in the query string: send it as "Authorization: Bearer <key>"');
    expect(answer.headers.get('x-sandbox-trace')).toContain('key=fail in-query;');
  });

  it('a task of another account: said in the trace, never in the answer', async () => {
    const door = viaFetch(OPTIONS);
    const task = (await postTask(door, ADMIN.pro, TASK)).json;
    const answer = await door.call('GET', `/ext/tasks/${task.id}`, { key: ADMIN.starter, headers: EXPLAIN });
    expect(answer.status).toBe(404);
    expect(answer.text).not.toMatch(/another account|acc_pro/);
    expect(stepOf(door, 'resource')).toMatchObject({
      outcome: 'fail',
      figures: { task_id: task.id, other_account: true },
    });
    expect(stepOf(door, 'resource')!.detail).toContain('it belongs to another account');
    expect(answer.headers.get('x-sandbox-trace')).toContain(`resource=fail task ${task.id} other-account;`);
    await door.call('GET', '/ext/tasks/task_nope', { key: ADMIN.starter });
    expect(stepOf(door, 'resource')!.figures).toEqual({ task_id: 'task_nope' });
  });

  it('a wrong method: the methods the path answers', async () => {
    const door = viaFetch(OPTIONS);
    const answer = await door.call('DELETE', '/ext/tasks/task_1', { key: ADMIN.pro, headers: EXPLAIN });
    expect(answer.status).toBe(404);
    expect(stepOf(door, 'route')).toMatchObject({
      outcome: 'fail',
      figures: { allowed_methods: 'GET', did_you_mean: null },
    });
    expect(stepOf(door, 'route')!.detail).toBe(
      'No route for DELETE /api/v1/ext/tasks/task_1. This path answers GET only.',
    );
    expect(answer.headers.get('x-sandbox-trace')).toContain('route=fail allow=GET;');
  });

  it('a path typo: the nearest path, its id kept; nothing when no path is near', async () => {
    const door = viaFetch(OPTIONS);
    const answer = await door.call('GET', '/ext/task/task_1', { key: ADMIN.pro, headers: EXPLAIN });
    expect(stepOf(door, 'route')!.detail).toBe(
      'No route for GET /api/v1/ext/task/task_1. Did you mean /ext/tasks/task_1?',
    );
    expect(answer.headers.get('x-sandbox-trace')).toContain('route=fail did-you-mean=/ext/tasks/task_1;');
    await door.call('GET', '/ext/agent', { key: ADMIN.pro });
    expect(stepOf(door, 'route')!.figures).toMatchObject({ did_you_mean: '/ext/agents' });
    await door.call('GET', '/completely/elsewhere/entirely', { key: ADMIN.pro });
    expect(stepOf(door, 'route')!.figures).toMatchObject({ did_you_mean: null, allowed_methods: null });
  });
});

describe('distinct steps for the scenario header and the query', () => {
  it('an unknown X-Sandbox-Scenario is a header step, a bad query parameter a query step (not body)', async () => {
    const door = viaFetch(OPTIONS);
    const header = await door.call('GET', '/ext/agents', {
      key: ADMIN.pro,
      headers: { ...EXPLAIN, 'X-Sandbox-Scenario': 'nope' },
    });
    expect(header.status).toBe(400);
    expect(stepOf(door, 'header')).toMatchObject({ outcome: 'fail', figures: { header: 'X-Sandbox-Scenario' } });
    expect(stepOf(door, 'body')).toBeUndefined();
    expect(header.headers.get('x-sandbox-trace')).toContain('header=fail X-Sandbox-Scenario;');
    const query = await door.call('GET', '/ext/agents?limit=0', { key: ADMIN.pro, headers: EXPLAIN });
    expect(query.status).toBe(400);
    expect(stepOf(door, 'query')).toMatchObject({ outcome: 'fail', figures: { parameter: 'limit' } });
    expect(stepOf(door, 'body')).toBeUndefined();
    expect(query.headers.get('x-sandbox-trace')).toContain('query=fail limit;');
  });
});
