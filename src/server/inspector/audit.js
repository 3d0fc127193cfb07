// The audit panel (GET /__sandbox/audit, when the sandbox has it): read again only after a changed answer, at most
// every 2 s (every 10 s while the sandbox has none).
import { control } from './api.js';
import { $, changed, el, forget, table } from './dom.js';
import { requestLink } from './detail.js';

let auditAt = 0;
let auditMissing = false;
let auditDue = true;

/** After a read of the live data: `due` when the answer changed (or the read was forced). */
export async function afterPoll(due) {
  if (due) auditDue = true;
  if (auditDue) await refreshAudit();
}

async function refreshAudit() {
  const now = Date.now();
  if (now - auditAt < (auditMissing ? 10000 : 2000)) return;
  auditAt = now;
  auditDue = false;
  let findings;
  try {
    findings = (await control('GET', '/audit')).data;
    auditMissing = false;
  } catch (e) {
    auditMissing = true;
    auditDue = true;
    forget('audit');
    $('audit-note').textContent = '';
    table(
      'audit',
      ['audit'],
      [],
      e.status === 404 ? 'No audit: this sandbox does not serve GET /__sandbox/audit.' : 'No audit: ' + e.message,
    );
    return;
  }
  if (changed('audit', findings)) renderAudit(findings);
}

function renderAudit(findings) {
  $('audit-note').textContent = findings.length + ' findings';
  // Per account (the audit's order within one: errors first); requests without a valid key are per client, no account.
  const accounts = [...new Set(findings.map((f) => f.account_id))];
  const grouped = accounts.flatMap((a) => findings.filter((f) => f.account_id === a));
  table(
    'audit',
    ['account', 'severity', 'rule', 'count', 'fix', 'first', 'last'],
    grouped.map((f, i) => ({
      attrs: {
        'data-rule': f.rule,
        'data-account': f.account_id || '',
        class: i > 0 && grouped[i - 1].account_id === f.account_id ? undefined : 'group-start',
      },
      wrap: [f.fix],
      cells: [
        f.account_id || 'no key (per client)',
        el('b', { class: 'sev-' + f.severity }, f.severity),
        f.rule,
        f.count,
        f.fix,
        requestLink(f.first_request_id),
        requestLink(f.last_request_id),
      ],
    })),
    'No findings: the integration follows the rules the audit checks.',
  );
}
