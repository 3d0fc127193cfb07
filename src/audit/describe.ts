import type { AuditFinding } from './auditor.js';

/** One line a finding: what, how often, where to look, what to change. */
export function describeFinding(f: AuditFinding): string {
  const where =
    f.first_request_id === f.last_request_id ? f.first_request_id : `${f.first_request_id} … ${f.last_request_id}`;
  return `${f.severity} ${f.rule} ×${f.count}${f.account_id ? ` (${f.account_id})` : ''} at ${where}: ${f.fix}`;
}
