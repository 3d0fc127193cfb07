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
