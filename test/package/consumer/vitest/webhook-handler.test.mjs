// A consumer's webhook handler unit-tested with the packed tarball: signed events with sign(), hostile deliveries with
// deliver(), and the audit rule; run by test/package/consumer.test.ts.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { createSandbox } from 'agent-work-sandbox';
import { auditMatchers } from 'agent-work-sandbox/matchers';

expect.extend(auditMatchers);

const SECRET = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;

/** The consumer's handler (a Fetch-style route, as in Hono or Next): verify, then act once per webhook-id. */
function makeHandler({ verifies }) {
  const done = new Set();
  const completed = [];
  const handle = async (request) => {
    const body = await request.text();
    let event;
    try {
      event = verifies ? new Webhook(SECRET).verify(body, Object.fromEntries(request.headers)) : JSON.parse(body);
    } catch {
      return new Response('invalid signature', { status: 400 });
    }
    if (done.has(event.id)) return new Response(null, { status: 204 });
    done.add(event.id);
    if (event.type === 'task.completed') completed.push(event.data.task.id);
    return new Response(null, { status: 204 });
  };
  return { handle, completed };
}

describe('a webhook handler tested with agent-work-sandbox (tarball)', () => {
  it('sign(): a task.completed event from the sandbox state, taken once even when sent twice', async () => {
    const sandbox = createSandbox({ clock: 'manual' });
    const key = sandbox.keys.list('acc_demo').find((k) => k.label === 'admin').key;
    const auth = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
    const agents = await (await sandbox.fetch('https://api.example.com/api/v1/ext/agents', { headers: auth })).json();
    const created = await sandbox.fetch('https://api.example.com/api/v1/ext/tasks', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ agent_id: agents.data[0].id, description: 'Summarise the report.' }),
    });
    const task = await created.json();
    sandbox.clock.advance('1m');
    const event = sandbox.webhooks.event('task.completed', { taskId: task.id });
    const handler = makeHandler({ verifies: true });
    const { body, headers } = await sandbox.webhooks.sign(event, { secret: SECRET });
    const first = await handler.handle(new Request('http://app.test/webhooks', { method: 'POST', body, headers }));
    const again = await handler.handle(new Request('http://app.test/webhooks', { method: 'POST', body, headers }));
    expect([first.status, again.status]).toEqual([204, 204]);
    expect(handler.completed).toEqual([task.id]);
  });

  it('deliver() with tamper: the verifying handler passes, the audit stays clean', async () => {
    const sandbox = createSandbox({ clock: 'manual' });
    const event = sandbox.webhooks.event('credits.low', { accountId: 'acc_demo' });
    const report = await sandbox.webhooks.deliver(makeHandler({ verifies: true }).handle, event, {
      secret: SECRET,
      duplicates: 1,
      tamper: ['signature', 'timestamp-stale', 'body'],
    });
    expect(report.ok).toBe(true);
    expect(sandbox).toHaveCleanAudit();
  });

  it('a handler that skips verification is caught by deliver() and by the audit rule', async () => {
    const sandbox = createSandbox({ clock: 'manual' });
    const event = sandbox.webhooks.event('credits.low', { accountId: 'acc_demo' });
    const report = await sandbox.webhooks.deliver(makeHandler({ verifies: false }).handle, event, {
      secret: SECRET,
      tamper: ['signature'],
    });
    expect(report.ok).toBe(false);
    expect(report.verdicts.find((v) => v.check === 'rejects-signature')).toMatchObject({
      passed: false,
      rule: 'handler-accepts-bad-signature',
    });
    expect(() => expect(sandbox).toHaveCleanAudit()).toThrow(/handler-accepts-bad-signature/);
  });
});
