import type { AuditObserver, HandlerFault } from '../core/engine.js';
import { requestId } from '../core/journal.js';
import { STRIDE, stepIndex, type RawTrace } from '../core/trace.js';
import type { PlainRequest, PlainResponse } from '../core/types.js';
import { maskKeys } from '../core/mask.js';
import { nanoToUsd } from '../model/money.js';
import type { EntryFacts } from '../core/journal.js';
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
import { duplicateGroups, duplicateNano, observeUnsafePost, unsafePosts, type UnsafePosts } from './unsafe-retry.js';

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
  /** The first requests that matched (up to five), as the client sent them and saw the answer. */
  requests: FlaggedRequest[];
  /** `unsafe-post-retry`: tasks created more than once by a POST and its retries (each group: the first, then the duplicates). */
  duplicate_task_ids?: string[][];
  /** `unsafe-post-retry`: what the duplicates hold or have been charged, USD. */
  duplicate_usd?: number;
}

/** One request a finding points at. */
interface FlaggedRequest {
  request_id: string;
  method: string;
  /** Below the base path, keys masked, without the query. */
  path: string;
  /** 0: the connection failed. */
  status: number;
}

/** What one client (an account, or a client without a valid key) has done that the rules remember. */
interface Subject {
  accountId: string | null;
  /** Until when the last 429 / 503 asked the client to wait, and for which requests. */
  blockedUntil: number;
  blockedBy: AuditRuleName;
  blockedCreateOnly: boolean;
  /** Task POSTs (without Idempotency-Key) that failed or were slow, and what their retries created. */
  unsafe: UnsafePosts;
  /** Task path → time of its last poll. */
  polls: Map<string, number>;
  /** Spendable and estimated nano-dollars of the last 402 (spendable -1: none). */
  last402: { spendable: number; estimated: number };
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
  requests: FlaggedRequest[];
  /** For a webhook handler's fault: the `webhook-id` of the first and last message (there is no request id). */
  firstRef?: string;
  lastRef?: string;
}

const MAX_FLAGGED = 5;

const HANDLER_RULES: Record<HandlerFault, AuditRuleName> = {
  'bad-signature': 'handler-accepts-bad-signature',
  'stale-timestamp': 'handler-accepts-stale-timestamp',
};

const MAX_SUBJECTS = 10_000;
const NO_402 = { spendable: -1, estimated: 0 };
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
  /** The request being observed and its status: a finding names it (copied only when it matches a rule). */
  private req: PlainRequest | undefined;
  private status = 0;

  constructor(private readonly state: () => State) {}

  observe(facts: EntryFacts, req: PlainRequest, response: PlainResponse | undefined): void {
    const { id, status, code, accountId, at: now, trace } = facts;
    this.req = req;
    this.status = status;
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

    if (isCreate) this.observeCreate(subject, facts, req, response);
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

  private observeCreate(subject: Subject, facts: EntryFacts, req: PlainRequest, response: PlainResponse | undefined) {
    const { id, status, at: now, trace } = facts;
    const hasKey = req.header('idempotency-key') !== undefined;
    if (observeUnsafePost(subject.unsafe, { body: hash53(req.body), hasKey, status, response, now }))
      this.hit(subject, 'unsafe-post-retry', id);
    // The money check as the trace recorded it, before this task held anything: [balance, held, estimated, spendable].
    const balance = stepIndex(trace, 'balance');
    if (balance === -1) return;
    const estimated = trace[balance + 4] as number;
    const spendable = trace[balance + 5] as number;
    const last = subject.last402;
    // Trying again is right once more is spendable (a top-up, released holds) or with a task that costs less.
    if (last.spendable >= 0 && spendable <= last.spendable && estimated >= last.estimated)
      this.hit(subject, 'ignored-402', id);
    subject.last402 = status === 402 ? { spendable, estimated } : NO_402;
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
        unsafe: unsafePosts(),
        polls: new Map(),
        last402: NO_402,
        badKeys: new Set(),
        nearWindow: -1,
        tallies: new Map(),
      };
      this.subjects.set(name, s);
    }
    return s;
  }

  private hit(subject: Subject, rule: AuditRuleName, id: number): void {
    const flagged = (): FlaggedRequest => ({
      request_id: requestId(id),
      method: this.req?.method ?? '',
      path: maskKeys(this.req?.path ?? ''),
      status: this.status,
    });
    const t = subject.tallies.get(rule);
    if (t) {
      t.count += 1;
      t.last = id;
      if (t.requests.length < MAX_FLAGGED) t.requests.push(flagged());
    } else {
      subject.tallies.set(rule, { count: 1, first: id, last: id, requests: [flagged()] });
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
        const finding: AuditFinding = {
          rule: name,
          severity: rule.severity,
          count: t.count,
          first_request_id: t.firstRef ?? requestId(t.first),
          last_request_id: t.lastRef ?? requestId(t.last),
          fix: rule.fix,
          account_id: subject.accountId,
          requests: t.requests.slice(),
        };
        if (name === 'unsafe-post-retry') this.addDuplicates(finding, subject);
        out.push(finding);
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

  private addDuplicates(finding: AuditFinding, subject: Subject): void {
    const groups = duplicateGroups(subject.unsafe);
    if (groups.length === 0) return;
    finding.duplicate_task_ids = groups.map((ids) => ids.slice());
    finding.duplicate_usd = Number(nanoToUsd(duplicateNano(this.state(), groups)).toFixed(9));
  }

  clear(): void {
    this.subjects.clear();
  }
}
