/**
 * The integration audit's rules: what each one watches for, how bad it is, and what to change. Data only: the
 * auditor (`auditor.ts`) detects, this file says; docs/guides/explain-and-audit.md is written from it.
 */
export type Severity = 'error' | 'warning' | 'info';

export interface AuditRule {
  rule: AuditRuleName;
  severity: Severity;
  /** What the rule detects. */
  description: string;
  /** One or two sentences: what to change in the client. */
  fix: string;
  /** A finding is reported once this many requests matched (default 1). */
  minCount?: number;
}

export type AuditRuleName =
  | 'retry-before-reset'
  | 'retry-after-503-ignored'
  | 'unsafe-post-retry'
  | 'polling-storm'
  | 'ignored-402'
  | 'repeated-invalid-key'
  | 'key-in-url'
  | 'missing-content-type'
  | 'near-limit';

/** Polls of one task closer together than this (sandbox clock) count towards `polling-storm`. */
export const MIN_POLL_INTERVAL_MS = 1000;
/** Share of the RPM or TPM limit that counts as "near" it. */
export const NEAR_LIMIT_SHARE = 0.8;

export const AUDIT_RULES: readonly AuditRule[] = [
  {
    rule: 'retry-before-reset',
    severity: 'error',
    description:
      'A request sent after a 429 before the time in its X-RateLimit-Reset / Retry-After (for a 429 on tokens per minute: a task creation before then).',
    fix: 'After a 429, wait until X-RateLimit-Reset (or Retry-After seconds) before the next request; requests sent earlier are refused and still count.',
  },
  {
    rule: 'retry-after-503-ignored',
    severity: 'error',
    description: 'A request sent after a 503 before its Retry-After seconds had passed.',
    fix: 'After a 503, wait the Retry-After seconds before retrying, and back off exponentially if it persists.',
  },
  {
    rule: 'unsafe-post-retry',
    severity: 'error',
    description:
      'The same task POSTed again after a 5xx, a failed connection or a slow answer, when the first POST had no Idempotency-Key: if the first one was created, the task runs and is charged twice.',
    fix: 'Send an Idempotency-Key (a fresh UUID per task, reused on every retry of that task) with POST /ext/tasks.',
  },
  {
    rule: 'polling-storm',
    severity: 'warning',
    description: `GET /ext/tasks/:id for one task more often than once a second (${MIN_POLL_INTERVAL_MS} ms of sandbox time), faster than a task changes; reported from the third poll that comes within a second of the one before.`,
    fix: 'Poll a task at most once a second, backing off while it stays queued or running (or use webhooks on Pro and Enterprise).',
    minCount: 3,
  },
  {
    rule: 'ignored-402',
    severity: 'warning',
    description:
      'Task creation tried again after a 402 insufficient_credits while the spendable balance had not grown.',
    fix: 'Treat 402 as final: stop creating tasks and ask for a top-up (or wait for running tasks to release their holds) before trying again.',
  },
  {
    rule: 'repeated-invalid-key',
    severity: 'warning',
    description: 'A key answered 401 invalid_api_key sent again by the same client.',
    fix: 'Treat 401 as final: stop, report the key as invalid or revoked and ask for a new one; retrying does not help.',
  },
  {
    rule: 'key-in-url',
    severity: 'error',
    description: 'An API key in the URL (path or query string), where proxies, logs and browser history keep it.',
    fix: 'Send the key only in the Authorization header ("Authorization: Bearer <key>"), never in the URL; rotate any key that was sent this way.',
  },
  {
    rule: 'missing-content-type',
    severity: 'warning',
    description: 'A request with a body but no Content-Type: application/json.',
    fix: 'Send Content-Type: application/json with every request body.',
  },
  {
    rule: 'near-limit',
    severity: 'info',
    description: `Sustained use near a limit: at least ${NEAR_LIMIT_SHARE * 100} % of the RPM or TPM used in two or more rate windows.`,
    fix: 'Spread requests out or queue them on the client, or move to a plan with higher limits, before 429s start.',
    minCount: 2,
  },
];

export const AUDIT_RULE_BY_NAME: ReadonlyMap<AuditRuleName, AuditRule> = new Map(AUDIT_RULES.map((r) => [r.rule, r]));
