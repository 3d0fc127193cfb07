import { maskedHeaders, maskKeys } from './mask.js';
import { formatTrace, type RawTrace, type TraceStep } from './trace.js';
import type { PlainRequest, PlainResponse } from './types.js';

/** What the request core learned of one request, as the journal and the audit receive it. */
export interface EntryFacts {
  id: number;
  at: number;
  basePath: string;
  status: number;
  code: string | null;
  keyId: string | null;
  accountId: string | null;
  scenarios: string[];
  trace: RawTrace;
}

/** One handled request. */
export interface JournalEntry {
  /** `req_…`: the request's id (deterministic: the sandbox's request count), named by `explain` and audit findings. */
  id: string;
  seq: number;
  /** ISO 8601 UTC, sandbox clock. */
  time: string;
  method: string;
  path: string;
  status: number;
  /** `error.code` of an error answer, else null. */
  code: string | null;
  keyId: string | null;
  accountId: string | null;
  /** Names of the scenarios in force for the request. */
  scenarios: string[];
  /** Milliseconds the sandbox held the answer before sending it (a `latency` scenario's delay); 0 when none. */
  latencyMs: number;
  /** The steps that decided the answer, in order. */
  trace: TraceStep[];
  /** What was sent (keys masked; body cut at 16 KiB). */
  request: { headers: Record<string, string>; body: string };
  /** What was answered (`null` when the connection failed or your own handlers answered). */
  response: { headers: Record<string, string>; body: string } | null;
}

/** The journal's request id of a request count: `req_000042`. */
export function requestId(n: number): string {
  return `req_${String(n).padStart(6, '0')}`;
}

export const DEFAULT_JOURNAL_SIZE = 1000;

/**
 * One recorded request, as the core handed it over: its facts and the objects it was asked and answered with, held by
 * reference (none of them changes once answered). Nothing is copied, masked or formatted until the journal is read.
 */
interface Recorded {
  seq: number;
  facts: EntryFacts;
  method: string;
  path: string;
  query: string;
  headers: PlainRequest['headers'];
  body: string;
  /** Undefined when nothing was answered: a failed connection, or the user's own handlers answered. */
  response: PlainResponse | undefined;
  latencyMs: number;
}

/** A bounded journal of handled requests: a ring buffer, oldest dropped first. */
export class Journal {
  private entries: (Recorded | undefined)[] = [];
  private next = 0;
  private seq = 0;
  private changes = 0;

  constructor(readonly capacity = DEFAULT_JOURNAL_SIZE) {}

  /** Bumped by every record and clear: an unchanged version means an unchanged journal (the inspector's 304). */
  get version(): number {
    return this.changes;
  }

  /** How many entries it holds. */
  get size(): number {
    return Math.min(this.seq, this.capacity);
  }

  record(facts: EntryFacts, request: PlainRequest, response: PlainResponse | undefined): void {
    if (this.capacity <= 0) return;
    this.seq += 1;
    this.changes += 1;
    this.entries[this.next] = {
      seq: this.seq,
      facts,
      method: request.method,
      path: request.path,
      query: request.query,
      // A fetch `Headers` belongs to the door's Request (msw's holds its body stream and signal): copied. Node's
      // header object is plain and stays as it was parsed.
      headers: isHeaders(request.headers) ? plainHeaders(request.headers) : request.headers,
      body: request.body,
      response: response?.networkError ? undefined : response,
      latencyMs: response?.delayMs ?? 0,
    };
    this.next = this.next + 1 === this.capacity ? 0 : this.next + 1;
  }

  /** The entries, oldest first (newest last); `newest` keeps the last ones only. */
  list(newest = Infinity): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let i = Math.max(0, this.capacity - newest); i < this.capacity; i++) {
      const recorded = this.entries[(this.next + i) % this.capacity];
      if (recorded) out.push(view(recorded));
    }
    return out;
  }

  /**
   * Up to `limit` entries that `keep` accepts, newest first, without `trace`, `request` and `response` (the costly part
   * to format): a list of requests. `keep` sees the entry's plain fields (masked, as listed).
   */
  summaries(limit = Infinity, keep?: (e: SummaryFields) => boolean): JournalSummary[] {
    const out: JournalSummary[] = [];
    for (let i = this.capacity - 1; i >= 0 && out.length < limit; i--) {
      const recorded = this.entries[(this.next + i) % this.capacity];
      if (!recorded) continue;
      const summary = summaryView(recorded);
      if (!keep || keep(summary)) out.push(summary);
    }
    return out;
  }

  /** One entry by its request id (`req_…`), if the journal still holds it. */
  get(id: string): JournalEntry | undefined {
    const recorded = this.entries.find((e) => e !== undefined && requestId(e.facts.id) === id);
    return recorded && view(recorded);
  }

  clear(): void {
    this.entries = [];
    this.next = 0;
    this.seq = 0;
    this.changes += 1;
  }
}

/** Which journal entries to keep: every given field must match. */
export interface RequestFilter {
  /** `GET`, `POST`… (case-insensitive). */
  method?: string;
  /**
   * The path without its query, with or without the base path (`/ext/tasks` or `/api/v1/ext/tasks`); a trailing `*`
   * matches a prefix (`/ext/tasks/*`); a RegExp is tested on the full path with its query.
   */
  path?: string | RegExp;
  status?: number;
  /** `error.code`; `null` keeps the answers that are not errors. */
  code?: string | null;
  keyId?: string;
  accountId?: string;
  /** A scenario that was in force for the request. */
  scenario?: string;
}

/** Whether a journal entry matches a filter (`basePath` lets paths be given with or without it). */
export function matchesFilter(entry: JournalEntry, filter: RequestFilter, basePath: string): boolean {
  if (filter.method !== undefined && entry.method !== filter.method.toUpperCase()) return false;
  if (filter.status !== undefined && entry.status !== filter.status) return false;
  if (filter.code !== undefined && entry.code !== filter.code) return false;
  if (filter.keyId !== undefined && entry.keyId !== filter.keyId) return false;
  if (filter.accountId !== undefined && entry.accountId !== filter.accountId) return false;
  if (filter.scenario !== undefined && !entry.scenarios.includes(filter.scenario)) return false;
  if (filter.path !== undefined) {
    if (filter.path instanceof RegExp) return filter.path.test(entry.path);
    const q = entry.path.indexOf('?');
    const path = q === -1 ? entry.path : entry.path.slice(0, q);
    const wanted = filter.path.startsWith(basePath + '/') ? filter.path : basePath + filter.path;
    return wanted.endsWith('*') ? path.startsWith(wanted.slice(0, -1)) : path === wanted;
  }
  return true;
}

/** A journal entry without its detail (trace, headers, bodies): what a list of requests shows. */
export type JournalSummary = Omit<JournalEntry, 'trace' | 'request' | 'response'>;

/** What a summaries filter reads of an entry. */
export type SummaryFields = Pick<
  JournalEntry,
  'seq' | 'method' | 'path' | 'status' | 'code' | 'keyId' | 'accountId' | 'scenarios'
>;

function summaryView(e: Recorded): JournalSummary {
  const { facts } = e;
  return {
    id: requestId(facts.id),
    seq: e.seq,
    time: new Date(facts.at).toISOString(),
    method: maskKeys(e.method),
    path: maskKeys(facts.basePath + e.path + (e.query ? `?${e.query}` : '')),
    status: facts.status,
    code: facts.code,
    keyId: facts.keyId,
    accountId: facts.accountId,
    scenarios: facts.scenarios,
    latencyMs: e.latencyMs,
  };
}

/** Bodies in the journal's entries are cut at this many characters. */
const BODY_LIMIT = 16 * 1024;
const cut = (body: string) => (body.length > BODY_LIMIT ? body.slice(0, BODY_LIMIT) : body);

function view(e: Recorded): JournalEntry {
  const res = e.response;
  return {
    ...summaryView(e),
    trace: formatTrace(e.facts.trace, maskKeys),
    request: { headers: maskedHeaders(plainHeaders(e.headers)), body: maskKeys(cut(e.body)) },
    response: res ? { headers: maskedHeaders(res.headers), body: maskKeys(cut(res.body)) } : null,
  };
}

const isHeaders = (headers: PlainRequest['headers']): headers is Headers =>
  typeof (headers as Headers | undefined)?.forEach === 'function' && typeof (headers as Headers).get === 'function';

/** A door's headers as one record: node's object (a list's values joined by ", "), a `Headers`, or none. */
function plainHeaders(headers: PlainRequest['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  if (isHeaders(headers)) {
    headers.forEach((value, name) => (out[name] = value));
    return out;
  }
  const record = headers;
  for (const name in record) {
    const value = record[name];
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
