/** The integration audit: each rule of the catalogue triggered and not triggered, the filters, the control API. */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { AUDIT_RULES } from '../../src/index.js';
import { inProcess, overSocket, type Door } from '../support/doors.js';
import { ADMIN, OPTIONS, postTask } from '../tasks-and-billing/support.js';

let door: Door;
afterEach(() => door?.close());

const open = () => (door = inProcess(OPTIONS));
const rules = () => door.sandbox.audit().map((f) => f.rule);
const finding = (rule: string) => door.sandbox.audit().find((f) => f.rule === rule);
const usage = (key = ADMIN.pro) => door.call('GET', '/ext/usage', { key });
const TASK = { agent_id: 'agt_fixed', description: 'Summarise the quarterly report.' };
const advance = (ms: number) => door.sandbox.clock.advance(ms);

describe('retry-before-reset', () => {
  it('a request after a 429 before X-RateLimit-Reset is a finding naming both requests', async () => {
    open();
    door.sandbox.accounts.update('acc_pro', { limits: { rpm: 1 } });
    await usage();
    expect((await usage()).status).toBe(429);
    advance(30_000);
    await usage();
    expect(finding('retry-before-reset')).toEqual({
      rule: 'retry-before-reset',
      severity: 'error',
      count: 1,
      first_request_id: 'req_000003',
      last_request_id: 'req_000003',
      fix: AUDIT_RULES.find((r) => r.rule === 'retry-before-reset')!.fix,
      account_id: 'acc_pro',
    });
  });

  it('waiting until the reset is not', async () => {
    open();
    door.sandbox.accounts.update('acc_pro', { limits: { rpm: 1 } });
    await usage();
    const refused = await usage();
    advance(Date.parse(refused.headers.get('x-ratelimit-reset')!) - door.sandbox.clock.now());
    expect((await usage()).status).toBe(200);
    expect(rules()).not.toContain('retry-before-reset');
  });

  it('after a 429 on tokens per minute, reads are fine and only a task creation before the reset counts', async () => {
    open();
    door.sandbox.accounts.update('acc_pro', { limits: { tpm: 100 } });
    expect((await postTask(door, ADMIN.pro, TASK)).status).toBe(429);
    await usage();
    expect(rules()).toEqual([]);
    await postTask(door, ADMIN.pro, TASK);
    expect(finding('retry-before-reset')).toMatchObject({ count: 1, first_request_id: 'req_000003' });
  });
});

describe('retry-after-503-ignored', () => {
  it('a request before the 503 Retry-After seconds have passed is a finding; one after them is not', async () => {
    open();
    const undo = door.sandbox.useScenario('unavailable', { accountId: 'acc_pro' });
    expect((await usage()).headers.get('retry-after')).toBe('30');
    advance(29_000);
    await usage();
    expect(finding('retry-after-503-ignored')).toMatchObject({
      severity: 'error',
      count: 1,
      first_request_id: 'req_000002',
    });
    undo();
    advance(30_000);
    await usage();
    expect(finding('retry-after-503-ignored')!.count).toBe(1);
  });
});

describe('unsafe-post-retry', () => {
  it('the same task POSTed again after a 500 without an Idempotency-Key is a finding', async () => {
    open();
    const undo = door.sandbox.useScenario('server-error', { accountId: 'acc_pro' });
    expect((await postTask(door, ADMIN.pro, TASK)).status).toBe(500);
    undo();
    expect((await postTask(door, ADMIN.pro, TASK)).status).toBe(201);
    expect(finding('unsafe-post-retry')).toMatchObject({ severity: 'error', count: 1, first_request_id: 'req_000002' });
  });

  it('after a failed connection too', async () => {
    open();
    const undo = door.sandbox.useScenario('network-error', { accountId: 'acc_pro' });
    await expect(postTask(door, ADMIN.pro, TASK)).rejects.toThrow();
    undo();
    await postTask(door, ADMIN.pro, TASK);
    expect(rules()).toContain('unsafe-post-retry');
  });

  it('a retry with the same Idempotency-Key is not; nor is another task after a 500', async () => {
    open();
    const undo = door.sandbox.useScenario('server-error', { accountId: 'acc_pro' });
    await postTask(door, ADMIN.pro, TASK, { 'Idempotency-Key': 'task-1' });
    await postTask(door, ADMIN.pro, { ...TASK, description: 'Another task.' });
    undo();
    await postTask(door, ADMIN.pro, TASK, { 'Idempotency-Key': 'task-1' });
    await postTask(door, ADMIN.pro, { ...TASK, description: 'A third task.' });
    expect(rules()).toEqual([]);
  });
});

describe('polling-storm', () => {
  it('polling one task more than once a second is a finding from the third quick poll', async () => {
    open();
    const task = (await postTask(door, ADMIN.pro, TASK)).json;
    for (let i = 0; i < 3; i++) await door.call('GET', `/ext/tasks/${task.id}`, { key: ADMIN.pro });
    expect(finding('polling-storm')).toBeUndefined();
    await door.call('GET', `/ext/tasks/${task.id}`, { key: ADMIN.pro });
    expect(finding('polling-storm')).toMatchObject({
      severity: 'warning',
      count: 3,
      first_request_id: 'req_000003',
      last_request_id: 'req_000005',
    });
  });

  it('once a second is not', async () => {
    open();
    const task = (await postTask(door, ADMIN.pro, TASK)).json;
    for (let i = 0; i < 6; i++) {
      await door.call('GET', `/ext/tasks/${task.id}`, { key: ADMIN.pro });
      advance(1000);
    }
    expect(rules()).toEqual([]);
  });
});

describe('ignored-402', () => {
  it('creating a task again after a 402 with no more balance is a finding', async () => {
    open();
    door.sandbox.accounts.update('acc_pro', { balanceUsd: 0.000001 });
    expect((await postTask(door, ADMIN.pro, TASK)).status).toBe(402);
    await postTask(door, ADMIN.pro, TASK);
    await postTask(door, ADMIN.pro, TASK);
    expect(finding('ignored-402')).toMatchObject({
      severity: 'warning',
      count: 2,
      first_request_id: 'req_000002',
      last_request_id: 'req_000003',
    });
  });

  it('after a top-up it is not', async () => {
    open();
    door.sandbox.accounts.update('acc_pro', { balanceUsd: 0.000001 });
    await postTask(door, ADMIN.pro, TASK);
    door.sandbox.accounts.update('acc_pro', { balanceUsd: 10 });
    expect((await postTask(door, ADMIN.pro, TASK)).status).toBe(201);
    expect(rules()).toEqual([]);
  });
});

describe('repeated-invalid-key', () => {
  it('a key answered 401 sent again is a finding of the client (no account)', async () => {
    open();
    const bad = 'ak_wrong_key_000000000000000000000';
    await usage(bad);
    await usage(bad);
    expect(finding('repeated-invalid-key')).toMatchObject({
      severity: 'warning',
      count: 1,
      account_id: null,
      first_request_id: 'req_000002',
    });
    expect(JSON.stringify(door.sandbox.audit())).not.toContain(bad);
  });

  it('two different bad keys once each are not', async () => {
    open();
    await usage('ak_wrong_key_000000000000000000000');
    await usage('ak_other_wrong_key_000000000000000');
    expect(rules()).toEqual([]);
  });
});

describe('key-in-url', () => {
  it("a key in the query string is a finding of the key's account, without the key", async () => {
    open();
    await door.call('GET', `/ext/agents?api_key=${ADMIN.pro}`);
    await door.call('GET', `/ext/agents?limit=1&key=${ADMIN.pro}`, { key: ADMIN.pro });
    expect(finding('key-in-url')).toMatchObject({ severity: 'error', count: 2, account_id: 'acc_pro' });
    expect(JSON.stringify(door.sandbox.audit())).not.toContain(ADMIN.pro);
  });

  it('the key in the Authorization header only is not', async () => {
    open();
    await door.call('GET', '/ext/agents?limit=1', { key: ADMIN.pro });
    expect(rules()).toEqual([]);
  });
});

describe('missing-content-type', () => {
  it('a body without Content-Type: application/json is a finding', async () => {
    open();
    await door.call('POST', '/ext/tasks', {
      key: ADMIN.pro,
      body: JSON.stringify(TASK),
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(finding('missing-content-type')).toMatchObject({ severity: 'warning', count: 1 });
  });

  it('a JSON body with its content type, or no body, is not', async () => {
    open();
    await postTask(door, ADMIN.pro, TASK);
    await usage();
    expect(rules()).toEqual([]);
  });
});

describe('near-limit', () => {
  it('80 % of the RPM used in two windows is an info finding', async () => {
    open();
    door.sandbox.accounts.update('acc_pro', { limits: { rpm: 5 } });
    for (let i = 0; i < 4; i++) await usage();
    expect(finding('near-limit')).toBeUndefined();
    advance(60_000);
    for (let i = 0; i < 4; i++) await usage();
    expect(finding('near-limit')).toMatchObject({
      severity: 'info',
      count: 2,
      first_request_id: 'req_000004',
      last_request_id: 'req_000008',
    });
  });

  it('80 % of the TPM counts too; staying below in every window does not', async () => {
    open();
    door.sandbox.accounts.update('acc_pro', { limits: { rpm: 5 } });
    for (let w = 0; w < 3; w++) {
      for (let i = 0; i < 3; i++) await usage();
      advance(60_000);
    }
    expect(rules()).toEqual([]);
    door.sandbox.accounts.update('acc_pro', { limits: { rpm: 100, tpm: 1000 } });
    await postTask(door, ADMIN.pro, TASK);
    advance(60_000);
    await postTask(door, ADMIN.pro, TASK);
    expect(finding('near-limit')).toMatchObject({ count: 2 });
  });
});

describe('audit', () => {
  it('filters by account, lists errors first, and reset() empties it', async () => {
    open();
    await usage('ak_wrong_key_000000000000000000000');
    await usage('ak_wrong_key_000000000000000000000');
    await door.call('GET', `/ext/agents?api_key=${ADMIN.free}`);
    expect(door.sandbox.audit().map((f) => [f.severity, f.rule])).toEqual([
      ['error', 'key-in-url'],
      ['warning', 'repeated-invalid-key'],
    ]);
    expect(door.sandbox.audit({ accountId: 'acc_free' }).map((f) => f.rule)).toEqual(['key-in-url']);
    expect(door.sandbox.audit({ accountId: 'acc_pro' })).toEqual([]);
    door.sandbox.reset();
    expect(door.sandbox.audit()).toEqual([]);
  });

  it('every rule of the catalogue has a description, a severity and a fix of one or two sentences', () => {
    expect(AUDIT_RULES.map((r) => r.rule)).toEqual([
      'retry-before-reset',
      'retry-after-503-ignored',
      'unsafe-post-retry',
      'polling-storm',
      'ignored-402',
      'repeated-invalid-key',
      'key-in-url',
      'missing-content-type',
      'near-limit',
    ]);
    for (const r of AUDIT_RULES) {
      expect(['error', 'warning', 'info']).toContain(r.severity);
      expect(r.description.length).toBeGreaterThan(20);
      expect(r.fix.split(/(?<=\.)\s/).length).toBeLessThanOrEqual(2);
    }
  });

  it('docs/guides/explain-and-audit.md shows every rule of the catalogue with its severity, description and fix', () => {
    const doc = readFileSync(new URL('../../docs/guides/explain-and-audit.md', import.meta.url), 'utf8');
    for (const r of AUDIT_RULES)
      expect(doc).toContain(`| \`${r.rule}\` | ${r.severity} | ${r.description} | ${r.fix} |`);
  });

  it('GET /__sandbox/audit gives { data: findings }, ?account_id= filters, an unknown parameter is 400', async () => {
    door = await overSocket(OPTIONS);
    await door.call('GET', `/ext/agents?api_key=${ADMIN.free}`);
    await door.call('POST', '/ext/tasks', {
      key: ADMIN.pro,
      body: JSON.stringify(TASK),
      headers: { 'Content-Type': 'text/plain' },
    });
    const all = await door.call('GET', '/../../__sandbox/audit');
    expect(all.json).toEqual({ data: door.sandbox.audit() });
    expect(all.json.data.map((f: { rule: string }) => f.rule)).toEqual(['key-in-url', 'missing-content-type']);
    const pro = await door.call('GET', '/../../__sandbox/audit?account_id=acc_pro');
    expect(pro.json.data.map((f: { account_id: string }) => f.account_id)).toEqual(['acc_pro']);
    const bad = await door.call('GET', '/../../__sandbox/audit?severity=error');
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('invalid_request');
  });
});
