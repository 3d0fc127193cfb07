/** The decision trace: every answer kind's steps and figures, `explain`, the journal's request detail, the header opt-in. */
import { afterEach, describe, expect, it } from 'vitest';
import { inProcess, overSocket, type Door } from '../support/doors.js';
import { ADMIN, OPTIONS, PRO_READ_TASKS, postTask } from '../tasks-and-billing/support.js';

let door: Door;
afterEach(() => door?.close());

const open = (options = OPTIONS) => (door = inProcess(options));
const lastTrace = () => door.sandbox.requests.at(-1)!.trace;
const steps = () => lastTrace().map((s) => `${s.step}:${s.outcome}`);
const stepOf = (name: string) => lastTrace().find((s) => s.step === name)!;
const TASK = { agent_id: 'agt_fixed', description: 'Summarise the quarterly report.' };

describe('decision trace of each answer kind', () => {
  it('200: key, rate, route, scope, answer, with the rate window figures', async () => {
    open();
    await door.call('GET', '/ext/agents', { key: ADMIN.pro });
    expect(steps()).toEqual(['key:pass', 'rate:pass', 'route:pass', 'scope:pass', 'answer:pass']);
    expect(stepOf('key').figures).toEqual({ key_id: 'key_pro_admin', account_id: 'acc_pro' });
    expect(stepOf('rate').figures).toMatchObject({
      limit: 300,
      used: 1,
      remaining: 299,
      reset: '2026-01-10T00:01:00.000Z',
      anonymous: false,
    });
    expect(stepOf('answer').figures).toEqual({ status: 200, code: null });
    for (const s of lastTrace()) expect(typeof s.detail).toBe('string');
  });

  it('201: body, resource, idempotency, balance and holds, tokens per minute, in the order they are decided', async () => {
    open();
    door.sandbox.accounts.update('acc_pro', { balanceUsd: 10 });
    const answer = await postTask(door, ADMIN.pro, TASK);
    expect(answer.status).toBe(201);
    expect(steps()).toEqual([
      'key:pass',
      'rate:pass',
      'route:pass',
      'scope:pass',
      'body:pass',
      'resource:pass',
      'idempotency:skip',
      'balance:pass',
      'tpm:pass',
      'answer:pass',
    ]);
    const needed = Math.ceil(TASK.description.length / 4) + 40 + 800;
    expect(stepOf('tpm').figures).toMatchObject({ used: 0, needed });
    const balance = stepOf('balance').figures!;
    expect(balance.balance_usd).toBe(10);
    expect(balance.held_usd).toBe(0);
    expect(balance.estimated_cost_usd).toBeGreaterThan(0);
    // The figure is the hold the account now carries.
    expect(door.sandbox.accounts.get('acc_pro')!.held_usd).toBeCloseTo(balance.estimated_cost_usd as number, 9);
    expect(stepOf('idempotency').detail).toMatch(/second task/);
  });

  it('201 replayed: the idempotency step says the first task is replayed', async () => {
    open();
    await postTask(door, ADMIN.pro, TASK, { 'Idempotency-Key': 'k1' });
    expect(stepOf('idempotency')).toMatchObject({ outcome: 'pass', figures: { idempotency_key: 'k1' } });
    await postTask(door, ADMIN.pro, TASK, { 'Idempotency-Key': 'k1' });
    expect(steps()).toEqual([
      'key:pass',
      'rate:pass',
      'route:pass',
      'scope:pass',
      'body:pass',
      'idempotency:applied',
      'answer:pass',
    ]);
  });

  it('401: the key step fails with its reason, the anonymous bucket counts the request', async () => {
    open();
    await door.call('GET', '/ext/agents', { key: 'ak_not_a_known_key_000000000000' });
    expect(steps()).toEqual(['key:fail', 'rate:pass', 'answer:fail']);
    expect(stepOf('key').figures).toEqual({ reason: 'unknown', key: 'ak_not_…' });
    expect(stepOf('rate').figures).toMatchObject({ anonymous: true, limit: 60 });
    await door.call('GET', '/ext/agents');
    expect(stepOf('key').figures).toMatchObject({ reason: 'missing', key: null });
    door.sandbox.keys.revoke('key_pro_read_tasks');
    await door.call('GET', '/ext/agents', { key: PRO_READ_TASKS });
    expect(stepOf('key').figures).toMatchObject({ reason: 'revoked' });
    expect(stepOf('answer').figures).toEqual({ status: 401, code: 'invalid_api_key' });
  });

  it('403: the scope step names the scope required and the scopes the key has', async () => {
    open();
    await postTask(door, PRO_READ_TASKS, TASK);
    expect(steps()).toEqual(['key:pass', 'rate:pass', 'route:pass', 'scope:fail', 'answer:fail']);
    expect(stepOf('scope').figures).toEqual({ required: 'write:tasks', granted: 'read:tasks' });
  });

  it('404: a resource that does not exist, and a path with no route', async () => {
    open();
    await door.call('GET', '/ext/tasks/task_nope', { key: ADMIN.pro });
    expect(steps()).toEqual(['key:pass', 'rate:pass', 'route:pass', 'scope:pass', 'resource:fail', 'answer:fail']);
    expect(stepOf('resource').figures).toEqual({ task_id: 'task_nope' });
    await door.call('GET', '/ext/nothing', { key: ADMIN.pro });
    expect(steps()).toEqual(['key:pass', 'rate:pass', 'route:fail', 'answer:fail']);
  });

  it('400: an invalid body fails the body step with the message the client got', async () => {
    open();
    const answer = await postTask(door, ADMIN.pro, { agent_id: 'agt_fixed' });
    expect(answer.status).toBe(400);
    expect(stepOf('body')).toMatchObject({ outcome: 'fail', detail: answer.json.error.message });
  });

  it('402: the balance step fails with balance, held, estimated cost and spendable', async () => {
    open();
    door.sandbox.accounts.update('acc_pro', { balanceUsd: 0.000001 });
    const answer = await postTask(door, ADMIN.pro, TASK);
    expect(answer.status).toBe(402);
    expect(steps()).toEqual([
      'key:pass',
      'rate:pass',
      'route:pass',
      'scope:pass',
      'body:pass',
      'resource:pass',
      'idempotency:skip',
      'balance:fail',
      'answer:fail',
    ]);
    const f = stepOf('balance').figures!;
    expect(f).toMatchObject({ balance_usd: 0.000001, held_usd: 0, spendable_usd: 0.000001 });
    expect(f.estimated_cost_usd as number).toBeGreaterThan(0.000001);
  });

  it('429 by RPM: the rate step fails with limit, used and reset', async () => {
    open();
    door.sandbox.accounts.update('acc_pro', { limits: { rpm: 1 } });
    await door.call('GET', '/ext/usage', { key: ADMIN.pro });
    await door.call('GET', '/ext/usage', { key: ADMIN.pro });
    expect(steps()).toEqual(['key:pass', 'rate:fail', 'answer:fail']);
    expect(stepOf('rate').figures).toMatchObject({
      limit: 1,
      used: 1,
      remaining: 0,
      reset: '2026-01-10T00:01:00.000Z',
    });
  });

  it('429 by TPM: money passes, the tokens step fails with the tokens needed and left', async () => {
    open();
    door.sandbox.accounts.update('acc_pro', { limits: { tpm: 100 } });
    const answer = await postTask(door, ADMIN.pro, TASK);
    expect(answer.status).toBe(429);
    expect(steps().slice(-3)).toEqual(['balance:pass', 'tpm:fail', 'answer:fail']);
    expect(stepOf('tpm').figures).toMatchObject({ tpm: 100, used: 0, remaining: 100 });
  });

  it('scenario answers: the scenario step names the scenario and its effect', async () => {
    open({ ...OPTIONS, scenarios: [{ name: 'unavailable', accountId: 'acc_pro' }] });
    await door.call('GET', '/ext/agents', { key: ADMIN.pro });
    expect(steps()).toEqual(['key:pass', 'scenario:applied', 'answer:fail']);
    expect(stepOf('scenario').figures).toEqual({ scenarios: 'unavailable', effect: '503 service_unavailable' });
    door.sandbox.clearScenarios();
    door.sandbox.useScenario('rate-limited', { accountId: 'acc_pro' });
    await door.call('GET', '/ext/agents', { key: ADMIN.pro });
    expect(steps()).toEqual(['key:pass', 'scenario:applied', 'rate:fail', 'answer:fail']);
    door.sandbox.clearScenarios();
    door.sandbox.useScenario('out-of-credits', { accountId: 'acc_pro' });
    await postTask(door, ADMIN.pro, TASK);
    expect(stepOf('balance')).toMatchObject({ outcome: 'fail', figures: { spendable_usd: 0 } });
    door.sandbox.clearScenarios();
    door.sandbox.useScenario('revoked-key', { accountId: 'acc_pro' });
    await door.call('GET', '/ext/agents', { key: ADMIN.pro });
    expect(steps()).toEqual(['scenario:applied', 'key:fail', 'rate:pass', 'answer:fail']);
  });
});

describe('explain, the journal request detail, the header opt-in', () => {
  it('sandbox.explain(id) gives the trace of the journal entry with that id; ids are deterministic', async () => {
    open();
    await door.call('GET', '/ext/agents', { key: ADMIN.pro });
    await door.call('GET', '/ext/usage', { key: ADMIN.pro });
    const [first, second] = door.sandbox.requests;
    expect([first!.id, second!.id]).toEqual(['req_000001', 'req_000002']);
    expect(door.sandbox.explain('req_000002')).toEqual(second!.trace);
    expect(door.sandbox.explain('req_999999')).toBeUndefined();
  });

  it('the journal keeps request and response headers and bodies, keys masked, bodies cut at 16 KiB', async () => {
    open();
    const description = 'x'.repeat(20_000);
    await postTask(door, ADMIN.pro, { agent_id: 'agt_fixed', description });
    const entry = door.sandbox.requests.at(-1)!;
    expect(entry.request.headers.authorization).toBe('Bearer ak_pro_…');
    expect(entry.request.headers['content-type']).toBe('application/json');
    expect(entry.request.body.length).toBe(16 * 1024);
    expect(entry.response!.headers['x-ratelimit-limit']).toBe('300');
    expect(entry.response!.body.length).toBe(16 * 1024);
    expect(entry.response!.body).toMatch(/^\{"id":"task_/);
  });

  it('no whole key appears in any trace, request detail or finding', async () => {
    open();
    await door.call('GET', '/ext/agents', { key: ADMIN.pro });
    await door.call('GET', '/ext/agents', { key: 'ak_some_unknown_key_00000000000000' });
    await door.call('GET', `/ext/agents?api_key=${ADMIN.pro}`);
    await door.call('GET', '/ext/agents', { headers: { Authorization: 'Basic dXNlcjpwYXNz' } });
    const everything = JSON.stringify([door.sandbox.requests, door.sandbox.audit()]);
    for (const key of [ADMIN.pro, 'ak_some_unknown_key_00000000000000', 'dXNlcjpwYXNz'])
      expect(everything).not.toContain(key);
    expect(everything).toContain('ak_pro_…');
  });

  it('X-Sandbox-Explain: 1 adds X-Sandbox-Trace; the body is the same bytes; without it nothing changes', async () => {
    open();
    const plain = await door.call('GET', '/ext/agents?limit=2', { key: ADMIN.pro });
    const explained = await door.call('GET', '/ext/agents?limit=2', {
      key: ADMIN.pro,
      headers: { 'X-Sandbox-Explain': '1' },
    });
    expect(plain.headers.get('x-sandbox-trace')).toBeNull();
    expect(explained.text).toBe(plain.text);
    expect(explained.headers.get('x-sandbox-trace')).toBe(
      'key=pass; rate=pass 2/300; route=pass; scope=pass; answer=200',
    );
    door.sandbox.accounts.update('acc_pro', { balanceUsd: 0 });
    const refused = await postTask(door, ADMIN.pro, TASK, { 'X-Sandbox-Explain': '1' });
    expect(refused.headers.get('x-sandbox-trace')).toBe(
      'key=pass; rate=pass 3/300; route=pass; scope=pass; body=pass; resource=pass; idempotency=skip; balance=fail need=$0.00044064 spendable=$0; answer=402 insufficient_credits',
    );
  });

  it('the control API serves the entries with their trace, and one entry by id', async () => {
    door = await overSocket(OPTIONS);
    await door.call('GET', '/ext/agents', { key: ADMIN.pro });
    const list = await door.call('GET', '/../../__sandbox/requests');
    expect(list.json.data[0]).toMatchObject({
      id: 'req_000001',
      trace: [
        { step: 'key', outcome: 'pass' },
        { step: 'rate' },
        { step: 'route' },
        { step: 'scope' },
        { step: 'answer' },
      ],
    });
    const one = await door.call('GET', '/../../__sandbox/requests/req_000001');
    expect(one.json).toEqual(list.json.data[0]);
    const none = await door.call('GET', '/../../__sandbox/requests/req_000009');
    expect(none.status).toBe(404);
    expect(none.json.error.code).toBe('not_found');
  });
});
