import type { AuditObserver, HandlerFault } from '../core/engine.js';
import { requestId } from '../core/journal.js';
import { STRIDE, stepIndex, type RawTrace } from '../core/trace.js';
import type { PlainRequest, PlainResponse } from '../core/types.js';
import { hash53 } from '../model/random.js';
import type { State } from '../model/state.js';
import {
  AUDIT_RULE_BY_NAME,
  AUDIT_RULES,
  MIN_POLL_INTERVAL_MS,
  NEAR_LIMIT_SHARE,
  type AuditRuleName,
  type Severity,
} from './catalog.js';

/** One finding of the integration audit: a rule a client broke, how often, and where to look. */
export interface AuditFinding {
  rule: AuditRuleName;
  severity: Severity;
  count: number;
  /**
   * Journal ids (`req_…`) of the first and last request that matched; for a `handler-…` rule, the `webhook-id`
   * (`evt_…`) of the first and last message the handler wrongly accepted.
   */
  first_request_id: string;
  last_request_id: string;
  fix: string;
  /** The account whose traffic it is (null: requests without a valid key). */
  account_id: string | null;
}

/** What one client (an account, or a client without a valid key) has done that the rules remember. */
interface Subject {
  accountId: string | null;
  /** Until when the last 429 / 503 asked the client to wait, and for which requests. */
  blockedUntil: number;
  blockedBy: AuditRuleName;
  blockedCreateOnly: boolean;
  /** Task bodies whose POST (without Idempotency-Key) failed or was slow: body hash → present. */
  unsafe: Set<number>;
  /** Task path → time of its last poll. */
  polls: Map<string, number>;
  /** Spendable nano-dollars at the last 402, or -1. */
  last402: number;
  /** Hashes of Authorization values answered 401 invalid_api_key. */
  badKeys: Set<number>;
  /** The rate window (its end) last found near a limit. */
  nearWindow: number;
  /** What this subject's requests matched, by rule. */
  tallies: Map<AuditRuleName, Tally>;
}

interface Tally {
  count: number;
  first: number;
  last: number;
  /** For a webhook handler's fault: the `webhook-id` of the first and last message (there is no request id). */
  firstRef?: string;
  lastRef?: string;
}

const HANDLER_RULES: Record<HandlerFault, AuditRuleName> = {
  'bad-signature': 'handler-accepts-bad-signature',
  'stale-timestamp': 'handler-accepts-stale-timestamp',
};

const MAX_SUBJECTS = 10_000;
const MAX_REMEMBERED = 1_000;
const KEY_IN_URL = /ak_|(^|&)(api[_-]?key|apikey|access_token|key)=/i;
const KEY_TEXT = /ak_[A-Za-z0-9_-]+/g;
const CREATE_PATH = '/ext/tasks';
const POLL_PREFIX = '/ext/tasks/';

/**
 * Watches each account's traffic, one request at a time (a few map lookups and comparisons per request), and keeps a
 * tally per account and rule. Findings are formatted only when read.
 */
export class Auditor implements AuditObserver {
  private subjects = new Map<string, Subject>();

  constructor(private readonly state: () => State) {}

  observe(
    id: number,
    req: PlainRequest,
    status: number,
    code: string | null,
    accountId: string | null,
    now: number,
    trace: RawTrace,
    response: PlainResponse | undefined,
  ): void {
    const subject = this.subject(accountId, req, id);
    const isCreate = req.method === 'POST' && req.path === CREATE_PATH;

    if (now < subject.blockedUntil && (!subject.blockedCreateOnly || isCreate))
      this.hit(subject, subject.blockedBy, id);
    if (status === 429 && response) {
      subject.blockedUntil =
        Date.parse(response.headers['X-RateLimit-Reset'] ?? '') ||
        now + Number(response.headers['Retry-After'] ?? 0) * 1000;
      subject.blockedBy = 'retry-before-reset';
      // A 429 on tokens (the step before the answer is `tpm`) holds back task creation only.
      subject.blockedCreateOnly = trace[trace.length - 2 * STRIDE] === 'tpm';
    } else if (status === 503 && response) {
      subject.blockedUntil = now + Number(response.headers['Retry-After'] ?? 0) * 1000;
      subject.blockedBy = 'retry-after-503-ignored';
      subject.blockedCreateOnly = false;
    }

    if (isCreate) this.observeCreate(subject, id, req, status, response);
    else if (req.method === 'GET' && req.path.startsWith(POLL_PREFIX)) {
      const last = subject.polls.get(req.path);
      if (last !== undefined && now - last < MIN_POLL_INTERVAL_MS) this.hit(subject, 'polling-storm', id);
      if (subject.polls.size >= MAX_REMEMBERED) subject.polls.clear();
      subject.polls.set(req.path, now);
    }

    if (status === 401 && code === 'invalid_api_key') {
      const h = hash53(req.header('authorization') ?? '');
      if (subject.badKeys.has(h)) this.hit(subject, 'repeated-invalid-key', id);
      else if (subject.badKeys.size < MAX_REMEMBERED) subject.badKeys.add(h);
    }
    if (req.method !== 'GET' && req.body !== '' && !/json/i.test(req.header('content-type') ?? ''))
      this.hit(subject, 'missing-content-type', id);
    if (accountId !== null) this.observeLimits(subject, id, trace);
  }

  private observeCreate(
    subject: Subject,
    id: number,
    req: PlainRequest,
    status: number,
    response: PlainResponse | undefined,
  ): void {
    const idem = req.header('idempotency-key');
    if (subject.unsafe.size > 0 && subject.unsafe.has(hash53(req.body))) {
      this.hit(subject, 'unsafe-post-retry', id);
      if (status === 201) subject.unsafe.delete(hash53(req.body));
    }
    const uncertain = status >= 500 || status === 0 || (response?.delayMs ?? 0) > 0;
    if (uncertain && idem === undefined && subject.unsafe.size < MAX_REMEMBERED) subject.unsafe.add(hash53(req.body));

    const account = subject.accountId === null ? undefined : this.state().accounts.get(subject.accountId);
    if (!account) return;
    const spendable = Math.max(0, account.balanceNano - account.heldNano);
    if (subject.last402 >= 0) {
      if (spendable <= subject.last402) this.hit(subject, 'ignored-402', id);
      else subject.last402 = -1;
    }
    if (status === 402) subject.last402 = spendable;
  }

  private observeLimits(subject: Subject, id: number, trace: RawTrace): void {
    // rate: limit, used, resetAt; tpm: tpm, used, needed.
    const rate = stepIndex(trace, 'rate');
    if (rate === -1) return;
    let near = (trace[rate + 3] as number) >= NEAR_LIMIT_SHARE * (trace[rate + 2] as number);
    if (!near) {
      const tpm = stepIndex(trace, 'tpm');
      near =
        tpm !== -1 &&
        (trace[tpm + 3] as number) + (trace[tpm + 4] as number) >= NEAR_LIMIT_SHARE * (trace[tpm + 2] as number);
    }
    const window = trace[rate + 4] as number;
    if (near && window !== subject.nearWindow) {
      subject.nearWindow = window;
      this.hit(subject, 'near-limit', id);
    }
  }

  observeHandler(fault: HandlerFault, accountId: string | null, eventId: string): void {
    const subject = this.named(accountId, 'webhooks');
    this.hit(subject, HANDLER_RULES[fault], 0);
    const t = subject.tallies.get(HANDLER_RULES[fault]);
    if (t) {
      t.firstRef ??= eventId;
      t.lastRef = eventId;
    }
  }

  private subject(accountId: string | null, req: PlainRequest, id: number): Subject {
    const subject = this.named(accountId, req.clientId);
    if ((req.query !== '' && KEY_IN_URL.test(req.query)) || req.path.includes('ak_')) {
      // Whose key it is, if it is one: the finding goes to that account.
      let owner = accountId;
      const keys = this.state().keys;
      for (const text of `${req.path}?${req.query}`.match(KEY_TEXT) ?? []) owner ??= keys.get(text)?.accountId ?? null;
      this.hit(owner === accountId ? subject : this.named(owner, req.clientId), 'key-in-url', id);
    }
    return subject;
  }

  private named(accountId: string | null, clientId: string): Subject {
    const name = accountId ?? `client:${clientId}`;
    let s = this.subjects.get(name);
    if (!s) {
      const oldest = this.subjects.size >= MAX_SUBJECTS ? this.subjects.keys().next() : undefined;
      if (oldest && !oldest.done) this.subjects.delete(oldest.value);
      s = {
        accountId,
        blockedUntil: 0,
        blockedBy: 'retry-before-reset',
        blockedCreateOnly: false,
        unsafe: new Set(),
        polls: new Map(),
        last402: -1,
        badKeys: new Set(),
        nearWindow: -1,
        tallies: new Map(),
      };
      this.subjects.set(name, s);
    }
    return s;
  }

  private hit(subject: Subject, rule: AuditRuleName, id: number): void {
    const t = subject.tallies.get(rule);
    if (t) {
      t.count += 1;
      t.last = id;
    } else {
      subject.tallies.set(rule, { count: 1, first: id, last: id });
    }
  }

  /** The findings (of one account), errors first, then by rule and account. */
  findings(filter: { accountId?: string } = {}): AuditFinding[] {
    const out: AuditFinding[] = [];
    for (const subject of this.subjects.values()) {
      if (filter.accountId !== undefined && subject.accountId !== filter.accountId) continue;
      for (const [name, t] of subject.tallies) {
        const rule = AUDIT_RULE_BY_NAME.get(name);
        if (!rule || t.count < (rule.minCount ?? 1)) continue;
        out.push({
          rule: name,
          severity: rule.severity,
          count: t.count,
          first_request_id: t.firstRef ?? requestId(t.first),
          last_request_id: t.lastRef ?? requestId(t.last),
          fix: rule.fix,
          account_id: subject.accountId,
        });
      }
    }
    const order = (f: AuditFinding) => AUDIT_RULES.findIndex((r) => r.rule === f.rule);
    const rank = { error: 0, warning: 1, info: 2 } as const;
    return out.sort(
      (a, b) =>
        rank[a.severity] - rank[b.severity] ||
        order(a) - order(b) ||
        String(a.account_id).localeCompare(String(b.account_id)),
    );
  }

  clear(): void {
    this.subjects.clear();
  }
}
