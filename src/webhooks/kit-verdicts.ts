/** The verdicts of `webhooks.deliver()`: what each group of answers says about the handler. */
import type { WEBHOOK_TAMPERS } from '../schemas.js';
import type { SignedWebhook } from './kit-sign.js';

/** A way to spoil a message that a handler must reject. */
export type WebhookTamper = (typeof WEBHOOK_TAMPERS)[number];

/** One message `deliver()` sent, and the handler's answer. */
export interface DeliverAttempt {
  /** `delivery` (the first try), `retry` (after `failFirst`), `duplicate`, `reordered` (an event of `reorderWith`). */
  kind: 'delivery' | 'retry' | 'duplicate' | 'reordered' | 'tampered';
  /** How the message was spoiled, or null for a genuine one. */
  tamper: WebhookTamper | null;
  /** What was sent: the headers (the secret is never among them) and the raw body. */
  request: SignedWebhook;
  /** The handler's status, or null when no answer came. */
  status: number | null;
  /** The start of the handler's answer (up to 500 characters). */
  body: string | null;
  /** Real milliseconds the answer took. */
  latencyMs: number;
  error: string | null;
  /** 2xx: the handler took the message. */
  accepted: boolean;
  /** Whether a correct handler takes it (genuine) or refuses it (tampered). */
  expected: 'accept' | 'reject';
  /** `failFirst`: the sender counted this answer as failed, whatever it was. */
  countedAsFailed: boolean;
}

/** One check of a `deliver()` report. */
export interface DeliverVerdict {
  /** `accepts-signed`, `accepts-duplicates`, `accepts-reordered`, or `rejects-<tamper>`. */
  check: string;
  passed: boolean;
  /** The audit rule a failed tamper check breaks (also reported to `sandbox.audit()`), else null. */
  rule: 'handler-accepts-bad-signature' | 'handler-accepts-stale-timestamp' | null;
  /** What was seen, and on failure what to change. */
  message: string;
}

const answer = (a: DeliverAttempt) =>
  a.status === null ? `no answer (${a.error ?? 'unknown error'})` : String(a.status);

const GENUINE: Record<string, { check: string; fix: string }> = {
  delivery: {
    check: 'accepts-signed',
    fix: 'verify with the secret of the endpoint, on the raw body as received (not re-serialised JSON)',
  },
  duplicate: {
    check: 'accepts-duplicates',
    fix: 'answer 2xx to a webhook-id already handled, and skip its work instead of failing',
  },
  reordered: {
    check: 'accepts-reordered',
    fix: 'accept events in any order (compare the task status or created_at instead of assuming the sequence)',
  },
};

const TAMPERED = {
  signature: { rule: 'handler-accepts-bad-signature', what: 'a message signed with another secret' },
  body: { rule: 'handler-accepts-bad-signature', what: 'a body changed after signing' },
  'timestamp-stale': { rule: 'handler-accepts-stale-timestamp', what: 'a webhook-timestamp ten minutes old' },
  'timestamp-future': { rule: 'handler-accepts-stale-timestamp', what: 'a webhook-timestamp ten minutes ahead' },
} as const;

export function judge(attempts: readonly DeliverAttempt[]): DeliverVerdict[] {
  const verdicts: DeliverVerdict[] = [];
  for (const [kind, { check, fix }] of Object.entries(GENUINE)) {
    const group = attempts.filter((a) =>
      kind === 'delivery' ? a.kind === 'delivery' || a.kind === 'retry' : a.kind === kind,
    );
    if (group.length === 0) continue;
    const refused = group.filter((a) => !a.accepted);
    verdicts.push({
      check,
      passed: refused.length === 0,
      rule: null,
      message:
        refused.length === 0
          ? `${group.length} genuine message${group.length === 1 ? '' : 's'} answered 2xx.`
          : `The handler answered ${refused.map(answer).join(', ')} to a genuine message: ${fix}.`,
    });
  }
  for (const a of attempts) {
    if (a.tamper === null) continue;
    const t = TAMPERED[a.tamper];
    verdicts.push({
      check: `rejects-${a.tamper}`,
      passed: !a.accepted,
      rule: a.accepted ? t.rule : null,
      message: a.accepted
        ? `The handler answered ${answer(a)} to ${t.what}: ${t.rule}.`
        : `The handler refused ${t.what} (${answer(a)}).`,
    });
  }
  return verdicts;
}
