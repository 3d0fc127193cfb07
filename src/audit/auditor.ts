import { requestId } from '../core/journal.js';
import type { RawTrace } from '../core/trace.js';
import type { PlainRequest, PlainResponse } from '../core/types.js';
import { hash53 } from '../model/random.js';
import type { State } from '../model/state.js';
import { AUDIT_RULE_BY_NAME, AUDIT_RULES, MIN_POLL_INTERVAL_MS, NEAR_LIMIT_SHARE, type AuditRuleName, type Severity } from './catalog.js';

/** One finding of the integration audit: a rule a client broke, how often, and where to look. */
export interface AuditFinding {
  rule: AuditRuleName;
  severity: Severity;
  count: number;
  /** Journal ids (`req_…`) of the first and last request that matched. */
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
}

interface Tally {
  rule: AuditRuleName;
  accountId: string | null;
  count: number;
  first: number;
  last: number;
}

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
export class Auditor {
  private subjects = new Map<string, Subject>();
  private tallies = new Map<string, Tally>();

  constructor(private readonly state: () => State) {}

  observe(id: number, req: PlainRequest, status: number, code: string | null, accountId: string | null, now: number, trace: RawTrace, response: PlainResponse | undefined): void {
    const subject = this.subject(accountId, req, id);
    const isCreate = req.method === 'POST' && req.path === CREATE_PATH;

    if (now < subject.blockedUntil && (!subject.blockedCreateOnly || isCreate)) this.hit(subject.blockedBy, subject.accountId, id);
    if (status === 429 && response) {
      subject.blockedUntil = Date.parse(response.headers['X-RateLimit-Reset'] ?? '') || now + Number(response.headers['Retry-After'] ?? 0) * 1000;
      subject.blockedBy = 'retry-before-reset';
      subject.blockedCreateOnly = trace.length > 1 && trace[trace.length - 2]![0] === 'tpm';
    } else if (status === 503 && response) {
      subject.blockedUntil = now + Number(response.headers['Retry-After'] ?? 0) * 1000;
      subject.blockedBy = 'retry-after-503-ignored';
      subject.blockedCreateOnly = false;
    }

    if (isCreate) this.observeCreate(subject, id, req, status, response);
    else if (req.method === 'GET' && req.path.startsWith(POLL_PREFIX)) {
      const last = subject.polls.get(req.path);
      if (last !== undefined && now - last < MIN_POLL_INTERVAL_MS) this.hit('polling-storm', subject.accountId, id);
      if (subject.polls.size >= MAX_REMEMBERED) subject.polls.clear();
      subject.polls.set(req.path, now);
    }

    if (status === 401 && code === 'invalid_api_key') {
      const h = hash53(req.header('authorization') ?? '');
      if (subject.badKeys.has(h)) this.hit('repeated-invalid-key', subject.accountId, id);
      else if (subject.badKeys.size < MAX_REMEMBERED) subject.badKeys.add(h);
    }
    if (req.method !== 'GET' && req.body !== '' && !/json/i.test(req.header('content-type') ?? '')) this.hit('missing-content-type', subject.accountId, id);
    if (accountId !== null) this.observeLimits(subject, id, trace);
  }

  private observeCreate(subject: Subject, id: number, req: PlainRequest, status: number, response: PlainResponse | undefined): void {
    const idem = req.header('idempotency-key');
    if (subject.unsafe.size > 0 && subject.unsafe.has(hash53(req.body))) {
      this.hit('unsafe-post-retry', subject.accountId, id);
      if (status === 201) subject.unsafe.delete(hash53(req.body));
    }
    const uncertain = status >= 500 || status === 0 || (response?.delayMs ?? 0) > 0;
    if (uncertain && idem === undefined && subject.unsafe.size < MAX_REMEMBERED) subject.unsafe.add(hash53(req.body));

    const account = subject.accountId === null ? undefined : this.state().accounts.get(subject.accountId);
    if (!account) return;
    const spendable = Math.max(0, account.balanceNano - account.heldNano);
    if (subject.last402 >= 0) {
      if (spendable <= subject.last402) this.hit('ignored-402', subject.accountId, id);
      else subject.last402 = -1;
    }
    if (status === 402) subject.last402 = spendable;
  }

  private observeLimits(subject: Subject, id: number, trace: RawTrace): void {
    for (const s of trace) {
      // rate: [limit, used, resetAt]; tpm: [tpm, used, needed]
      const near = s[0] === 'rate' ? (s[3] as number) >= NEAR_LIMIT_SHARE * (s[2] as number)
        : s[0] === 'tpm' ? (s[3] as number) + (s[4] as number) >= NEAR_LIMIT_SHARE * (s[2] as number) : false;
      if (!near) continue;
      const rate = trace.find((r) => r[0] === 'rate');
      const window = rate ? (rate[4] as number) : 0;
      if (window !== subject.nearWindow) {
        subject.nearWindow = window;
        this.hit('near-limit', subject.accountId, id);
      }
      return;
    }
  }

  private subject(accountId: string | null, req: PlainRequest, id: number): Subject {
    let owner = accountId;
    if (KEY_IN_URL.test(req.query) || req.path.includes('ak_')) {
      // Whose key it is, if it is one: the finding goes to that account.
      const keys = this.state().keys;
      for (const text of `${req.path}?${req.query}`.match(KEY_TEXT) ?? []) owner ??= keys.get(text)?.accountId ?? null;
      this.hit('key-in-url', owner, id);
    }
    const name = accountId ?? `client:${req.clientId}`;
    let s = this.subjects.get(name);
    if (!s) {
      if (this.subjects.size >= MAX_SUBJECTS) this.subjects.delete(this.subjects.keys().next().value!);
      s = { accountId, blockedUntil: 0, blockedBy: 'retry-before-reset', blockedCreateOnly: false, unsafe: new Set(), polls: new Map(), last402: -1, badKeys: new Set(), nearWindow: -1 };
      this.subjects.set(name, s);
    }
    return s;
  }

  private hit(rule: AuditRuleName, accountId: string | null, id: number): void {
    const name = `${accountId ?? ''}\n${rule}`;
    const t = this.tallies.get(name);
    if (t) {
      t.count += 1;
      t.last = id;
    } else {
      this.tallies.set(name, { rule, accountId, count: 1, first: id, last: id });
    }
  }

  /** The findings (of one account), errors first, then by rule and account. */
  findings(filter: { accountId?: string } = {}): AuditFinding[] {
    const out: AuditFinding[] = [];
    for (const t of this.tallies.values()) {
      if (filter.accountId !== undefined && t.accountId !== filter.accountId) continue;
      const rule = AUDIT_RULE_BY_NAME.get(t.rule)!;
      if (t.count < (rule.minCount ?? 1)) continue;
      out.push({ rule: t.rule, severity: rule.severity, count: t.count, first_request_id: requestId(t.first), last_request_id: requestId(t.last), fix: rule.fix, account_id: t.accountId });
    }
    const order = (f: AuditFinding) => AUDIT_RULES.findIndex((r) => r.rule === f.rule);
    const rank = { error: 0, warning: 1, info: 2 } as const;
    return out.sort((a, b) => rank[a.severity] - rank[b.severity] || order(a) - order(b) || String(a.account_id).localeCompare(String(b.account_id)));
  }

  clear(): void {
    this.subjects.clear();
    this.tallies.clear();
  }
}
