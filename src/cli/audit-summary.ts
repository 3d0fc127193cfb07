import type { SandboxCore } from '../sandbox-types.js';
import { describeFinding } from '../audit/describe.js';

/**
 * What the CLI prints on stderr when it stops: the integration audit's findings, one line each with its fix, or
 * nothing when there are none (a clean session ends as quietly as before).
 */
export function auditSummary(sandbox: Pick<SandboxCore, 'audit'>): string {
  const findings = sandbox.audit();
  if (findings.length === 0) return '';
  const errors = findings.filter((f) => f.severity === 'error').length;
  const head = `agent-work-sandbox: integration audit: ${findings.length} finding${findings.length === 1 ? '' : 's'} (${errors} error${errors === 1 ? '' : 's'}); GET /__sandbox/audit for details, docs/guides/explain-and-audit.md for the rules.\n`;
  return head + findings.map((f) => `  - ${describeFinding(f)}\n`).join('');
}

/** Exit code when the CLI should fail on audit findings at or above `level` (`--fail-on-audit`). */
export const AUDIT_EXIT_CODE = 3;

/** The exit code at shutdown: 3 (said on stderr) when findings at or above `level` exist, else 0. */
export function auditExitCode(
  sandbox: Pick<SandboxCore, 'audit'>,
  level: 'error' | 'warning' | undefined,
  io: { stderr(text: string): void },
): number {
  if (level === undefined) return 0;
  const failing = sandbox
    .audit()
    .filter((f) => f.severity === 'error' || (level === 'warning' && f.severity === 'warning'));
  if (failing.length === 0) return 0;
  io.stderr(
    `agent-work-sandbox: --fail-on-audit ${level}: ${failing.length} finding${failing.length === 1 ? '' : 's'} at ${level} or worse; exit code ${AUDIT_EXIT_CODE}.\n`,
  );
  return AUDIT_EXIT_CODE;
}
