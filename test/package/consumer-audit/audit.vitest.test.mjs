// A consumer's Vitest suite (ESM): the audit matcher from the packed tarball. Run by test/explain/matchers-consumer.test.ts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditMatchers } from 'agent-work-sandbox/matchers';
import { setupSandbox } from 'agent-work-sandbox/vitest';

expect.extend(auditMatchers);
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
