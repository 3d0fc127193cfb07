/**
 * The audit's labelled corpus (test/audit-and-trace/corpus/): small clients, each with the findings it must leave.
 * Naive clients make the mistakes; careful ones follow each rule's fix text literally; edge cases sit in between.
 * Precision and recall are counted over (client, rule) pairs and must both be 100 %.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { AUDIT_RULES, type AuditRuleName } from '../../src/index.js';
import { auditMatchers } from '../../src/matchers.js';
import { inProcess, overSocket, viaFetch, type Door } from '../support/doors.js';
import { OPTIONS } from '../tasks-and-billing/support.js';
import { clientOf, TASK, type CorpusCase } from './corpus/client.js';
import { MONEY_AND_KEYS } from './corpus/money-and-keys.js';
import { POLLING_AND_LIMITS } from './corpus/polling-and-limits.js';
import { RETRIES } from './corpus/retries.js';

const CORPUS: CorpusCase[] = [...RETRIES, ...MONEY_AND_KEYS, ...POLLING_AND_LIMITS];

async function open(kind: CorpusCase['door'] = 'fetch'): Promise<Door> {
  if (kind === 'socket') return overSocket(OPTIONS);
  return kind === 'in-process' ? inProcess(OPTIONS) : viaFetch(OPTIONS);
}

async function findingsOf(c: CorpusCase) {
  const door = await open(c.door);
  try {
    await c.run(clientOf(door));
    return door.sandbox.audit();
  } finally {
    await door.close();
  }
}

const tally = { truePositives: 0, falsePositives: 0, falseNegatives: 0 };

describe('the corpus of client behaviours', () => {
  it('holds at least 30 clients, and for every rule a naive client that breaks it and a careful one', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(CORPUS.map((c) => c.name)).size).toBe(CORPUS.length);
    // The handler-… rules judge a webhook handler, not an API client: test/webhooks/kit.test.ts holds a handler that
    // breaks each and a careful one that stays clean.
    for (const { rule } of AUDIT_RULES.filter((r) => !r.rule.startsWith('handler-'))) {
      expect(
        CORPUS.some((c) => c.kind === 'naive' && c.expect.includes(rule)),
        rule,
      ).toBe(true);
      expect(
        CORPUS.some((c) => c.kind === 'careful' && !c.expect.includes(rule)),
        rule,
      ).toBe(true);
    }
  });

  it.each(CORPUS.map((c) => [`${c.kind}: ${c.name}`, c] as const))('%s', async (_name, c) => {
    const found = new Set((await findingsOf(c)).map((f) => f.rule));
    const expected = new Set<AuditRuleName>(c.expect);
    for (const rule of found) tally[expected.has(rule) ? 'truePositives' : 'falsePositives'] += 1;
    for (const rule of expected) if (!found.has(rule)) tally.falseNegatives += 1;
    expect([...found].sort()).toEqual([...expected].sort());
  });

  afterAll(() => {
    const { truePositives: tp, falsePositives: fp, falseNegatives: fn } = tally;
    // Printed so that a run shows the figures; the per-client assertions above are what fails.
    console.log(`audit corpus: precision ${(100 * tp) / (tp + fp)} %, recall ${(100 * tp) / (tp + fn)} %`);
    expect(fp + fn).toBe(0);
  });
});

describe('unsafe-post-retry after a timeout', () => {
  it('names the tasks created twice and the money they hold, and the third attempt meets the 402', async () => {
    const door = viaFetch(OPTIONS);
    const client = clientOf(door);
    door.sandbox.useScenario('latency', { accountId: 'acc_pro', ms: 20 });
    const first = await client.send('POST', '/ext/tasks', { body: TASK, timeoutMs: 1 });
    expect(first.error?.name).toMatch(/Abort|Timeout/);
    const second = await client.send('POST', '/ext/tasks', { body: TASK });
    expect(second.status).toBe(201);
    const [finding] = door.sandbox.audit().filter((f) => f.rule === 'unsafe-post-retry');
    const tasks = door.sandbox.findRequests({ method: 'POST', status: 201 });
    expect(finding).toMatchObject({
      severity: 'error',
      count: 1,
      first_request_id: second.headers.get('x-sandbox-request-id'),
      duplicate_task_ids: [[JSON.parse(tasks[0]!.response!.body).id, second.json.id]],
    });
    expect(finding!.duplicate_usd).toBeGreaterThan(0);
    expect(finding!.requests).toEqual([
      { request_id: second.headers.get('x-sandbox-request-id'), method: 'POST', path: '/ext/tasks', status: 201 },
    ]);
  });

  it('sandbox.fetch gives up at the client timeout, not after the delay, and the audit still sees the slow answer', async () => {
    const door = viaFetch(OPTIONS);
    const client = clientOf(door);
    // A minute of latency: without the abort told at once, this test would run into its own timeout.
    door.sandbox.useScenario('latency', { accountId: 'acc_pro', ms: 60_000 });
    const first = await client.send('POST', '/ext/tasks', { body: TASK, timeoutMs: 1 });
    expect(first.error?.name).toMatch(/Abort|Timeout/);
    door.sandbox.clearScenarios();
    await client.send('POST', '/ext/tasks', { body: TASK });
    expect(door.sandbox.audit().map((f) => f.rule)).toEqual(['unsafe-post-retry']);
  }, 10_000);

  it("toHaveCleanAudit fails on it, naming each flagged request's method, path, status and request id", async () => {
    const door = viaFetch(OPTIONS);
    const client = clientOf(door);
    door.sandbox.useScenario('latency', { accountId: 'acc_pro', ms: 20 });
    await client.send('POST', '/ext/tasks', { body: TASK, timeoutMs: 1 });
    const retry = await client.send('POST', '/ext/tasks', { body: TASK });
    const result = auditMatchers.toHaveCleanAudit(door.sandbox);
    expect(result.pass).toBe(false);
    expect(result.message()).toContain(`POST /ext/tasks → 201 (${retry.headers.get('x-sandbox-request-id')})`);
    expect(result.message()).toMatch(/created twice: task_\w+ = task_\w+ \(\$[\d.]+ held or charged again\)/);
  });
});
