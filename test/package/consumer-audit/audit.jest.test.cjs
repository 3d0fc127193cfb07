// A consumer's Jest suite (CommonJS): the matchers from the packed tarball (auditMatchers: the same object). Run by test/audit-and-trace/matchers-consumer.test.ts.
const { auditMatchers, sandboxMatchers } = require('agent-work-sandbox/matchers');
const { setupSandbox } = require('agent-work-sandbox/vitest');
const assertionCases = require('./assertions-cases.cjs');

expect.extend(sandboxMatchers);
const { sandbox } = setupSandbox({ clock: 'manual' });
const BASE = 'https://api.agent-work.example/api/v1';
const key = () => sandbox.keys.list('acc_demo').find((k) => k.label === 'admin').key;

describe('toHaveCleanAudit in Jest', () => {
  test('passes for a client that sends its key in the header', async () => {
    await fetch(`${BASE}/ext/agents`, { headers: { Authorization: `Bearer ${key()}` } });
    expect(sandbox).toHaveCleanAudit();
  });

  test('fails, naming the rule and its fix, for a key in the URL', async () => {
    await fetch(`${BASE}/ext/agents?api_key=${key()}`);
    expect(sandbox).not.toHaveCleanAudit();
    expect(() => expect(sandbox).toHaveCleanAudit()).toThrow(/key-in-url .*Authorization header/);
  });
});

test('auditMatchers is sandboxMatchers under its first name', () => {
  expect(auditMatchers).toBe(sandboxMatchers);
});

assertionCases({ describe, it: test, expect, sandbox });
