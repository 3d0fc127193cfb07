// A consumer's Vitest suite (ESM): the matchers from the packed tarball (auditMatchers: the same object). Run by test/audit-and-trace/matchers-consumer.test.ts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditMatchers, sandboxMatchers } from 'agent-work-sandbox/matchers';
import { setupSandbox } from 'agent-work-sandbox/vitest';
import assertionCases from './assertions-cases.cjs';

expect.extend(sandboxMatchers);
const { sandbox } = setupSandbox({ clock: 'manual', hooks: { beforeAll, afterEach, afterAll } });
const BASE = 'https://api.agent-work.example/api/v1';
const key = () => sandbox.keys.list('acc_demo').find((k) => k.label === 'admin').key;

describe('toHaveCleanAudit in Vitest', () => {
  it('passes for a client that sends its key in the header', async () => {
    await fetch(`${BASE}/ext/agents`, { headers: { Authorization: `Bearer ${key()}` } });
    expect(sandbox).toHaveCleanAudit();
  });

  it('fails, naming the rule and its fix, for a key in the URL', async () => {
    await fetch(`${BASE}/ext/agents?api_key=${key()}`);
    expect(sandbox).not.toHaveCleanAudit();
    expect(() => expect(sandbox).toHaveCleanAudit()).toThrow(/key-in-url .*Authorization header/);
  });
});

it('auditMatchers is sandboxMatchers under its first name', () => {
  expect(auditMatchers).toBe(sandboxMatchers);
});

assertionCases({ describe, it, expect, sandbox });
