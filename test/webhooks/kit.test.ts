import { createHmac } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { SandboxError } from '../../src/index.js';
import { auditMatchers } from '../../src/matchers.js';
import { api, createTask, manualSandbox, receiver, verify } from './helpers.js';

expect.extend(auditMatchers);

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

/** A careful handler: the standardwebhooks package verifies signature and timestamp; 400 when it throws. */
const careful = (secret: string) => async (request: Request) => {
  const body = await request.text();
  try {
    new Webhook(secret).verify(body, Object.fromEntries(request.headers));
  } catch {
    return new Response('bad signature', { status: 400 });
  }
  return new Response('ok');
};

/** A handler that skips verification. */
const careless = () => Promise.resolve(new Response('ok'));

/** A handler that checks the HMAC by hand but never looks at the timestamp. */
const noTolerance = (secret: string) => async (request: Request) => {
  const body = await request.text();
  const h = (n: string) => request.headers.get(n) ?? '';
  const mac = createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
    .update(`${h('webhook-id')}.${h('webhook-timestamp')}.${body}`)
    .digest('base64');
  return new Response(null, { status: h('webhook-signature') === `v1,${mac}` ? 204 : 401 });
};

describe('webhooks.event(): the event a delivery would carry, from the current state', () => {
  it('reports a real task of the sandbox, as GET /ext/tasks/:id shows it, at the sandbox clock', () => {
    const sandbox = manualSandbox();
    const task = createTask(sandbox);
    sandbox.clock.advance('2s');
    const event = sandbox.webhooks.event('task.started', { taskId: task.id });
    expect(Object.keys(event)).toEqual(['id', 'type', 'created_at', 'data']);
    expect(event).toMatchObject({ type: 'task.started', created_at: new Date(sandbox.clock.now()).toISOString() });
    expect(event.id).toMatch(/^evt_[0-9a-z]{16}$/);
    expect(event.data).toEqual({ task: api(sandbox, 'GET', `/ext/tasks/${task.id}`).json });
  });

  it('without taskId, the newest task of the account; credits.low reports the account', () => {
    const sandbox = manualSandbox();
    createTask(sandbox);
    const newest = createTask(sandbox);
    expect(sandbox.webhooks.event('task.created', { accountId: 'acc_demo' }).data).toMatchObject({
      task: { id: newest.id },
    });
    const low = sandbox.webhooks.event('credits.low', { accountId: 'acc_demo' });
    expect(low.data).toMatchObject({ account: { id: 'acc_demo' }, threshold_usd: 5 });
  });

  it('is the same for the same seed and calls, and makes no live delivery', () => {
    const make = () => {
      const sandbox = manualSandbox();
      const r = receiver();
      sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
      return { event: sandbox.webhooks.event('credits.low', { accountId: 'acc_demo' }), sandbox, r };
    };
    const a = make();
    expect(make().event).toEqual(a.event);
    expect(a.sandbox.webhooks.deliveries()).toEqual([]);
  });

  it('overrides change fields the event has, nested; an unknown field throws and names it', () => {
    const sandbox = manualSandbox();
    const task = createTask(sandbox);
    const event = sandbox.webhooks.event('task.failed', {
      taskId: task.id,
      overrides: { data: { task: { status: 'failed', error: { code: 'task_failed', message: 'No.' } } } },
    });
    expect(event.data).toMatchObject({ task: { id: task.id, status: 'failed', error: { code: 'task_failed' } } });
    expect(() =>
      sandbox.webhooks.event('task.failed', { taskId: task.id, overrides: { data: { task: { stauts: 'failed' } } } }),
    ).toThrow(/no field 'data\.task\.stauts'/);
    expect(() => sandbox.webhooks.event('task.failed', { overrides: { amount: 1 } })).toThrow(SandboxError);
    expect(() => sandbox.webhooks.event('task.failed', { overrides: { type: 'task.exploded' } })).toThrow(
      /type must be one of/,
    );
  });

  it('refuses an unknown type, task, account or option', () => {
    const sandbox = manualSandbox();
    expect(() => sandbox.webhooks.event('task.exploded' as never)).toThrow(/type must be one of/);
    expect(() => sandbox.webhooks.event('task.created', { taskId: 'task_nope' })).toThrow(/No task 'task_nope'/);
    expect(() => sandbox.webhooks.event('task.created', { accountId: 'acc_nope' })).toThrow(/No account/);
    expect(() => sandbox.webhooks.event('task.created', { taskID: 'x' } as never)).toThrow(/Unknown field 'taskID'/);
  });
});

describe('webhooks.sign(): a signed message for a unit test, with no server', () => {
  it('gives body and Standard Webhooks headers that the standardwebhooks package verifies', async () => {
    const sandbox = manualSandbox();
    const event = sandbox.webhooks.event('task.created', { taskId: createTask(sandbox).id });
    const { body, headers } = await sandbox.webhooks.sign(event, { secret: SECRET });
    expect(body).toBe(JSON.stringify(event));
    expect(headers['webhook-id']).toBe(event.id);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verify(SECRET, { body, headers })).toEqual(event);
  });

  it('the timestamp is wall time by default (the sandbox clock is for the event body only)', async () => {
    const sandbox = manualSandbox();
    sandbox.clock.set('2020-01-01T00:00:00Z');
    const event = sandbox.webhooks.event('credits.low');
    expect(event.created_at).toBe('2020-01-01T00:00:00.000Z');
    const { headers } = await sandbox.webhooks.sign(event, { secret: SECRET });
    expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
  });

  it('a given timestamp is signed as given: ten minutes old, the verifier refuses it', async () => {
    const sandbox = manualSandbox();
    const event = sandbox.webhooks.event('credits.low');
    const old = new Date(Date.now() - 600_000);
    const signed = await sandbox.webhooks.sign(event, { secret: SECRET, timestamp: old });
    expect(signed.headers['webhook-timestamp']).toBe(String(Math.floor(old.getTime() / 1000)));
    expect(() => verify(SECRET, signed)).toThrow(WebhookVerificationError);
  });

  it('refuses a secret that is not whsec_, and an unknown option', async () => {
    const sandbox = manualSandbox();
    const event = sandbox.webhooks.event('credits.low');
    await expect(sandbox.webhooks.sign(event, { secret: 'sk_live_x' })).rejects.toThrow(/whsec_/);
    await expect(sandbox.webhooks.sign(event, { secret: SECRET, ts: 1 } as never)).rejects.toThrow(/Unknown field/);
  });
});

describe('webhooks.deliver(): a handler under live and hostile traffic, with verdicts', () => {
  const ALL = ['signature', 'timestamp-stale', 'timestamp-future', 'body'] as const;

  it('a careful handler passes every check, and the audit stays clean (no false positive)', async () => {
    const sandbox = manualSandbox();
    const task = createTask(sandbox);
    const event = sandbox.webhooks.event('task.created', { taskId: task.id });
    const later = sandbox.webhooks.event('task.started', { taskId: task.id });
    const report = await sandbox.webhooks.deliver(careful(SECRET), event, {
      secret: SECRET,
      duplicates: 1,
      failFirst: 1,
      reorderWith: [later],
      tamper: [...ALL],
    });
    expect(report.ok).toBe(true);
    expect(report.target).toBe('in-process');
    expect(report.attempts.map((a) => [a.kind, a.tamper, a.status, a.expected])).toEqual([
      ['reordered', null, 200, 'accept'],
      ['delivery', null, 200, 'accept'],
      ['retry', null, 200, 'accept'],
      ['duplicate', null, 200, 'accept'],
      ['tampered', 'signature', 400, 'reject'],
      ['tampered', 'timestamp-stale', 400, 'reject'],
      ['tampered', 'timestamp-future', 400, 'reject'],
      ['tampered', 'body', 400, 'reject'],
    ]);
    expect(report.attempts[1]!.countedAsFailed).toBe(true);
    expect(report.attempts[0]!.request.headers['webhook-id']).toBe(later.id);
    expect(new Set(report.attempts.slice(1).map((a) => a.request.headers['webhook-id']))).toEqual(new Set([event.id]));
    expect(report.attempts[4]!.body).toBe('bad signature');
    expect(report.verdicts.map((v) => [v.check, v.passed])).toEqual([
      ['accepts-signed', true],
      ['accepts-duplicates', true],
      ['accepts-reordered', true],
      ['rejects-signature', true],
      ['rejects-timestamp-stale', true],
      ['rejects-timestamp-future', true],
      ['rejects-body', true],
    ]);
    expect(sandbox).toHaveCleanAudit();
  });

  it('a handler that skips verification is caught: verdicts fail and the audit has handler-accepts-bad-signature', async () => {
    const sandbox = manualSandbox();
    const event = sandbox.webhooks.event('task.created', { taskId: createTask(sandbox).id });
    const report = await sandbox.webhooks.deliver(careless, event, { secret: SECRET, tamper: ['signature', 'body'] });
    expect(report.ok).toBe(false);
    expect(report.verdicts.filter((v) => !v.passed).map((v) => v.rule)).toEqual([
      'handler-accepts-bad-signature',
      'handler-accepts-bad-signature',
    ]);
    expect(sandbox.audit()).toEqual([
      expect.objectContaining({
        rule: 'handler-accepts-bad-signature',
        severity: 'error',
        count: 2,
        first_request_id: event.id,
        account_id: 'acc_demo',
      }),
    ]);
    expect(() => expect(sandbox).toHaveCleanAudit()).toThrow(/handler-accepts-bad-signature/);
  });

  it('a handler that checks the HMAC but not the timestamp is caught by timestamp-stale alone', async () => {
    const sandbox = manualSandbox();
    const event = sandbox.webhooks.event('credits.low', { accountId: 'acc_demo' });
    const report = await sandbox.webhooks.deliver(noTolerance(SECRET), event, { secret: SECRET, tamper: [...ALL] });
    expect(report.verdicts.filter((v) => !v.passed).map((v) => v.check)).toEqual([
      'rejects-timestamp-stale',
      'rejects-timestamp-future',
    ]);
    expect(sandbox.audit().map((f) => f.rule)).toEqual(['handler-accepts-stale-timestamp']);
  });

  it('a handler that rejects genuine messages fails accepts-signed (the wrong secret), with what to check', async () => {
    const sandbox = manualSandbox();
    const event = sandbox.webhooks.event('credits.low');
    const other = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const report = await sandbox.webhooks.deliver(careful(other), event, { secret: SECRET });
    expect(report.verdicts).toEqual([
      expect.objectContaining({
        check: 'accepts-signed',
        passed: false,
        rule: null,
        message: expect.stringMatching(/raw body/),
      }),
    ]);
    expect(sandbox).toHaveCleanAudit();
  });

  it("the secret defaults to that of the account's endpoint; without one, deliver() asks for it", async () => {
    const sandbox = manualSandbox();
    const event = sandbox.webhooks.event('credits.low', { accountId: 'acc_demo' });
    await expect(sandbox.webhooks.deliver(careless, event)).rejects.toThrow(/needs the secret/);
    const { secret } = sandbox.webhooks.add({ accountId: 'acc_demo', url: 'https://receiver.test/hook' });
    expect((await sandbox.webhooks.deliver(careful(secret), event)).ok).toBe(true);
  });

  it('refuses a bad target, an unknown tamper and an unknown option, sending nothing', async () => {
    const sandbox = manualSandbox();
    const event = sandbox.webhooks.event('credits.low');
    const calls: Request[] = [];
    const spy = (r: Request) => (calls.push(r), Promise.resolve(new Response()));
    await expect(sandbox.webhooks.deliver('ftp://x', event, { secret: SECRET })).rejects.toThrow(/http or https/);
    await expect(sandbox.webhooks.deliver(spy, event, { secret: SECRET, tamper: ['sig'] as never })).rejects.toThrow(
      /tamper/,
    );
    await expect(sandbox.webhooks.deliver(spy, event, { secret: SECRET, retries: 2 } as never)).rejects.toThrow(
      /Unknown field 'retries'/,
    );
    expect(calls).toEqual([]);
  });
});
