/**
 * Request patterns: what an assertion says a request looked like (`toHaveReceived`, `POST /__sandbox/verify`), matched
 * against journal entries field by field. The comparison of values is given (`Equals`): a test runner's `this.equals`
 * understands its asymmetric matchers, the control API compares JSON. A pattern with a key it does not know is refused,
 * so a typo cannot turn an assertion into one that passes without checking anything.
 */
import { SandboxError } from '../errors.js';
import type { JournalEntry } from './journal.js';
import type { TraceStep } from './trace.js';

/** What a request pattern may name. */
const PATTERN_KEYS = ['method', 'path', 'query', 'headers', 'body', 'status', 'code', 'accountId', 'keyId'] as const;

/**
 * A request as an assertion describes it; every field given must match, a field left out matches anything.
 * `query` and `headers` name the parameters and headers to check (the others may be anything); `body` is compared
 * whole, so a part of it is `expect.objectContaining({...})`.
 */
export interface RequestPattern {
  /** `GET`, `POST`… (case-insensitive). */
  method?: string;
  /** `/api/v1/ext/tasks/:id` (with or without the base path; `:name` is one segment), or a RegExp on the path. */
  path?: string | RegExp;
  query?: Record<string, unknown>;
  /** Header names in any case; credentials are seen masked (`Bearer ak_AbCd…`). */
  headers?: Record<string, unknown>;
  /** The parsed JSON body (the text when it is not JSON). */
  body?: unknown;
  status?: unknown;
  /** `error.code` of an error answer; `null` for an answer that is not an error. */
  code?: unknown;
  accountId?: unknown;
  keyId?: unknown;
}

/** How two values compare: `actual` against what the pattern expects. */
export type Equals = (actual: unknown, expected: unknown) => boolean;

/** One field of a request that did not match its pattern. */
export interface FieldDiff {
  field: string;
  expected: unknown;
  actual: unknown;
}

/** Refuses a pattern that is not an object or names a key a pattern does not take (`SandboxError`, naming the key). */
export function checkPattern(pattern: unknown, what = 'request pattern'): asserts pattern is RequestPattern {
  if (pattern === null || typeof pattern !== 'object' || Array.isArray(pattern))
    throw new SandboxError(`A ${what} is an object such as { method: 'POST', path: '/ext/tasks', status: 201 }.`);
  for (const key of Object.keys(pattern)) {
    if (!(PATTERN_KEYS as readonly string[]).includes(key))
      throw new SandboxError(`Unknown key '${key}' in the ${what}. A pattern takes: ${PATTERN_KEYS.join(', ')}.`);
  }
  const { path, query, headers } = pattern as { path?: unknown; query?: unknown; headers?: unknown };
  if (path !== undefined && typeof path !== 'string' && !(path instanceof RegExp))
    throw new SandboxError(`The ${what}'s path is a string ('/ext/tasks/:id') or a RegExp.`);
  for (const [name, value] of [
    ['query', query],
    ['headers', headers],
  ] as const) {
    if (value !== undefined && (value === null || typeof value !== 'object' || Array.isArray(value)))
      throw new SandboxError(`The ${what}'s ${name} is an object of names and values.`);
  }
}

/** The path of a journal entry without its query. */
function pathOf(entry: JournalEntry): string {
  const q = entry.path.indexOf('?');
  return q === -1 ? entry.path : entry.path.slice(0, q);
}

/** The query parameters of a journal entry: one value as a string, a repeated one as an array. */
function queryOf(entry: JournalEntry): Record<string, string | string[]> {
  const q = entry.path.indexOf('?');
  const out: Record<string, string | string[]> = {};
  if (q === -1) return out;
  for (const [name, value] of new URLSearchParams(entry.path.slice(q + 1))) {
    const had = out[name];
    out[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return out;
}

/** The request body as JSON when it parses, else its text (`undefined` when there is none). */
function bodyOf(entry: JournalEntry): unknown {
  const text = entry.request.body;
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const templates = new Map<string, RegExp>();

/** Whether a path matches a template: `:name` is one segment; the base path may be left out of the template. */
function matchesPathTemplate(path: string, template: string, basePath: string): boolean {
  const full = template.startsWith(basePath + '/') || basePath === '' ? template : basePath + template;
  let re = templates.get(full);
  if (!re) {
    const source = full
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    re = new RegExp(`^${source}$`);
    if (templates.size < 256) templates.set(full, re);
  }
  return re.test(path);
}

/** The fields of `entry` that do not match `pattern` (none: it matches). */
export function diffEntry(entry: JournalEntry, pattern: RequestPattern, equals: Equals, basePath: string): FieldDiff[] {
  const diffs: FieldDiff[] = [];
  const check = (field: string, actual: unknown, expected: unknown) => {
    if (expected !== undefined && !equals(actual, expected)) diffs.push({ field, expected, actual });
  };
  const { method, path } = pattern;
  if (method !== undefined) check('method', entry.method, typeof method === 'string' ? method.toUpperCase() : method);
  if (path !== undefined) {
    const actual = pathOf(entry);
    const ok = path instanceof RegExp ? path.test(actual) : matchesPathTemplate(actual, path, basePath);
    if (!ok) diffs.push({ field: 'path', expected: path, actual });
  }
  if (pattern.query) {
    const query = queryOf(entry);
    for (const [name, expected] of Object.entries(pattern.query)) check(`query.${name}`, query[name], expected);
  }
  if (pattern.headers) {
    const headers = entry.request.headers;
    for (const [name, expected] of Object.entries(pattern.headers)) {
      check(`headers.${name.toLowerCase()}`, headers[name.toLowerCase()], expected);
    }
  }
  if ('body' in pattern) check('body', bodyOf(entry), pattern.body);
  check('status', entry.status, pattern.status);
  check('code', entry.code, pattern.code);
  check('accountId', entry.accountId, pattern.accountId);
  check('keyId', entry.keyId, pattern.keyId);
  return diffs;
}

/** A request that did not match, and how. */
export interface NearMiss {
  entry: JournalEntry;
  diffs: FieldDiff[];
}

/** How many near misses a failed request assertion names. */
const NEAR_MISSES = 3;

/** The requests closest to matching `pattern` (fewest fields off, newest first among equals), at most three. */
export function nearMisses(
  entries: readonly JournalEntry[],
  pattern: RequestPattern,
  equals: Equals,
  basePath: string,
): NearMiss[] {
  const misses: NearMiss[] = [];
  for (const entry of entries) {
    const diffs = diffEntry(entry, pattern, equals, basePath);
    if (diffs.length > 0) misses.push({ entry, diffs });
  }
  return misses.sort((a, b) => a.diffs.length - b.diffs.length || b.entry.seq - a.entry.seq).slice(0, NEAR_MISSES);
}

/** How many matching requests an assertion wants (none given: at least one). */
export interface CountRule {
  eq?: number;
  gte?: number;
  lte?: number;
}

export function countHolds(n: number, rule: CountRule): boolean {
  if (rule.eq === undefined && rule.gte === undefined && rule.lte === undefined) return n >= 1;
  return (
    (rule.eq === undefined || n === rule.eq) &&
    (rule.gte === undefined || n >= rule.gte) &&
    (rule.lte === undefined || n <= rule.lte)
  );
}

/** `exactly 2`, `at least 1`, `at least 1 and at most 3`. */
export function describeCount(rule: CountRule): string {
  const parts: string[] = [];
  if (rule.eq !== undefined) parts.push(`exactly ${rule.eq}`);
  if (rule.gte !== undefined) parts.push(`at least ${rule.gte}`);
  if (rule.lte !== undefined) parts.push(`at most ${rule.lte}`);
  return parts.length === 0 ? 'at least 1' : parts.join(' and ');
}

/** A trace in one line: `key=pass; rate=pass; …; balance=fail (the detail of the step that failed)`. */
export function traceSummary(trace: readonly TraceStep[]): string {
  const failed = trace.find((s) => s.outcome === 'fail');
  const line = trace.map((s) => `${s.step}=${s.outcome}`).join('; ');
  return failed ? `${line} (${failed.detail})` : line;
}

/** `req_000003 POST /api/v1/ext/tasks → 402 insufficient_credits`. */
export function entryLine(entry: JournalEntry): string {
  return `${entry.id} ${entry.method} ${entry.path} → ${entry.status}${entry.code ? ` ${entry.code}` : ''}`;
}
