import type { AuditFinding } from './auditor.js';

/** One line a finding: what, how often, where to look, what to change. */
export function describeFinding(f: AuditFinding): string {
  const where =
    f.first_request_id === f.last_request_id ? f.first_request_id : `${f.first_request_id} … ${f.last_request_id}`;
  return `${f.severity} ${f.rule} ×${f.count}${f.account_id ? ` (${f.account_id})` : ''} at ${where}: ${f.fix}`;
}

/** The requests a finding names, one line each: method, path, status and request id; then the duplicate tasks. */
export function describeRequests(f: AuditFinding, indent = '    '): string[] {
  const lines = f.requests.map(
    (r) => `${indent}${r.method} ${r.path} → ${r.status === 0 ? 'no answer' : r.status} (${r.request_id})`,
  );
  if (f.count > lines.length && lines.length > 0) lines.push(`${indent}… ${f.count - lines.length} more`);
  if (f.duplicate_task_ids?.length)
    lines.push(
      `${indent}created twice: ${f.duplicate_task_ids.map((ids) => ids.join(' = ')).join('; ')} ($${f.duplicate_usd ?? 0} held or charged again)`,
    );
  return lines;
}
