// The Express handler of docs/guides/webhook-handlers.md, tested as the guide shows (keep the two in step).
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { auditMatchers } from '../../src/matchers.js';

expect.extend(auditMatchers);

// ---- the application's handler ----
const SECRET = process.env.WEBHOOK_SECRET ?? `whsec_${Buffer.alloc(24, 1).toString('base64')}`;
const seen = new Set<string>();
const completed: string[] = [];

const app = express();
app.post('/webhooks', express.text({ type: 'application/json' }), (req, res) => {
  let event: { id: string; type: string; data: { task?: { id: string } } };
  try {
    event = new Webhook(SECRET).verify(req.body as string, req.headers as Record<string, string>) as typeof event;
  } catch {
    return res.status(400).send('invalid signature');
  }
  if (!seen.has(event.id)) {
    seen.add(event.id);
    if (event.type === 'task.completed') completed.push(event.data.task!.id);
  }
  return res.status(204).end();
});

// ---- its tests ----
let server: ReturnType<typeof app.listen>;
let url: string;
beforeAll(async () => {
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('the Express handler of the guide', () => {
  it('takes a signed task.completed once, even when it comes twice', async () => {
    const sandbox = createSandbox({ clock: 'manual' });
    const event = sandbox.webhooks.event('task.completed', {
      accountId: 'acc_demo',
      overrides: { data: { task: { id: 'task_guide' } } },
    });
    const { body, headers } = await sandbox.webhooks.sign(event, { secret: SECRET });
    for (let i = 0; i < 2; i++) {
      const res = await fetch(url, { method: 'POST', headers, body });
      expect(res.status).toBe(204);
    }
    expect(completed).toEqual(['task_guide']);
  });

  it('refuses what it must: deliver() reports every check passed, and the audit is clean', async () => {
    const sandbox = createSandbox({ clock: 'manual' });
    const event = sandbox.webhooks.event('credits.low', { accountId: 'acc_demo' });
    const report = await sandbox.webhooks.deliver(url, event, {
      secret: SECRET,
      duplicates: 1,
      failFirst: 1,
      tamper: ['signature', 'timestamp-stale', 'timestamp-future', 'body'],
    });
    expect(report.verdicts.filter((v) => !v.passed)).toEqual([]);
    expect(sandbox).toHaveCleanAudit();
  });
});
