/** `expect(sandbox).toHaveCleanAudit()`, from the source, in Vitest (Jest: test/explain/matchers-consumer.test.ts). */
import { afterEach, describe, expect, it } from 'vitest';
import { auditMatchers, type AuditMatchers } from '../../src/matchers.js';
import { inProcess, type Door } from '../support/doors.js';
import { ADMIN, OPTIONS } from '../tasks-and-billing/support.js';

declare module 'vitest' {
  interface Assertion<T> extends AuditMatchers<T> {}
}
expect.extend(auditMatchers);

let door: Door;
afterEach(() => door?.close());

describe('toHaveCleanAudit', () => {
  it('passes on a sandbox without error findings, fails with each finding and its fix', async () => {
    door = inProcess(OPTIONS);
    await door.call('GET', '/ext/agents', { key: ADMIN.pro });
    expect(door.sandbox).toHaveCleanAudit();
    await door.call('GET', `/ext/agents?api_key=${ADMIN.pro}`);
    expect(() => expect(door.sandbox).toHaveCleanAudit()).toThrow(
      /1 error finding .*\n {2}- error key-in-url ×1 \(acc_pro\) at req_000002: Send the key only in the Authorization header/s,
    );
    expect(door.sandbox).not.toHaveCleanAudit();
    expect(door.sandbox).toHaveCleanAudit({ ignore: ['key-in-url'] });
    expect(door.sandbox).toHaveCleanAudit({ accountId: 'acc_free' });
  });

  it('severity: warning fails on warnings too; an array of findings works as well as a sandbox', async () => {
    door = inProcess(OPTIONS);
    await door.call('POST', '/ext/tasks', { key: ADMIN.pro, body: '{}', headers: { 'Content-Type': 'text/plain' } });
    expect(door.sandbox).toHaveCleanAudit();
    expect(door.sandbox).not.toHaveCleanAudit({ severity: 'warning' });
    expect(door.sandbox.audit()).not.toHaveCleanAudit({ severity: 'info' });
    expect(() => expect(door.sandbox).not.toHaveCleanAudit()).toThrow(
      /expected the integration audit to have error findings, but it has none/,
    );
    expect(() => expect(42).toHaveCleanAudit()).toThrow(TypeError);
  });
});
