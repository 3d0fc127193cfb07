/**
 * `agent-work-sandbox/matchers`: `expect(sandbox).toHaveCleanAudit()` for Vitest and Jest, so that a consumer's suite
 * fails when its client breaks a rule of the integration audit (docs/guides/explain-and-audit.md). Nothing here imports the runner:
 * register the matchers with the runner's own `expect.extend(auditMatchers)`.
 */
import type { AuditFinding } from './audit/auditor.js';
import { describeFinding } from './audit/describe.js';
import type { AuditRuleName, Severity } from './audit/catalog.js';

export interface CleanAuditOptions {
  /** The least severe finding that fails the assertion: `'error'` (default), `'warning'` or `'info'`. */
  severity?: Severity;
  /** Only this account's findings. */
  accountId?: string;
  /** Rules not to hold against the client. */
  ignore?: AuditRuleName[];
}

/** The matcher's types, to add to the runner's (see docs/guides/explain-and-audit.md). */
export interface AuditMatchers<R = unknown> {
  /** Passes when the audit has no finding at `severity` or worse (default: no `error` finding). */
  toHaveCleanAudit(options?: CleanAuditOptions): R;
}

interface Audited {
  audit(filter?: { accountId?: string }): AuditFinding[];
}

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

function findingsOf(received: unknown, accountId: string | undefined): AuditFinding[] {
  if (Array.isArray(received))
    return (received as AuditFinding[]).filter((f) => accountId === undefined || f.account_id === accountId);
  if (received && typeof (received as Audited).audit === 'function')
    return (received as Audited).audit(accountId === undefined ? {} : { accountId });
  throw new TypeError(
    'toHaveCleanAudit: expect a sandbox (createSandbox, setupSandbox().sandbox) or an array of audit findings.',
  );
}

export const auditMatchers = {
  toHaveCleanAudit(received: unknown, options: CleanAuditOptions = {}) {
    const severity = options.severity ?? 'error';
    if (!(severity in RANK))
      throw new TypeError(
        `toHaveCleanAudit: severity must be 'error', 'warning' or 'info'; got ${JSON.stringify(severity)}.`,
      );
    const ignore = new Set(options.ignore ?? []);
    const failing = findingsOf(received, options.accountId).filter(
      (f) => RANK[f.severity] <= RANK[severity] && !ignore.has(f.rule),
    );
    const pass = failing.length === 0;
    const worst = severity === 'error' ? 'error' : `${severity}-or-worse`;
    return {
      pass,
      message: () =>
        pass
          ? `expected the integration audit to have ${worst} findings, but it has none`
          : `expected a clean integration audit, but it has ${failing.length} ${worst} finding${failing.length === 1 ? '' : 's'} (sandbox.explain(id) shows a request's trace):\n${failing.map((f) => `  - ${describeFinding(f)}`).join('\n')}`,
    };
  },
};
