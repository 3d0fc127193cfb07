/**
 * What a matcher reads of the runner (the `expect.extend` contract that Vitest and Jest share) and of the sandbox, and
 * the text of a failure: the expected pattern, then the closest requests with the fields that differ, their request id
 * (`X-Sandbox-Request-Id` on the wire) and their trace in one line.
 */
import type { JournalEntry } from '../core/journal.js';
import type { AssertionScope, Mark } from '../core/marks.js';
import {
  entryLine,
  nearMisses,
  traceSummary,
  type Equals,
  type FieldDiff,
  type RequestPattern,
} from '../core/request-pattern.js';
import type { Spend } from '../core/spend.js';
import { maskKeys } from '../core/mask.js';

/** The part of the runner's matcher context the matchers use (`this` in a matcher, Vitest and Jest alike). */
export interface MatcherContext {
  equals(a: unknown, b: unknown, ...rest: never[]): boolean;
  isNot?: boolean;
  utils?: { stringify?(value: unknown): string };
}

/** The part of a sandbox the matchers read. */
export interface Asserted {
  basePath: string;
  journal: { entries(scope?: AssertionScope): JournalEntry[] };
  spend(scope?: { since?: Mark | string; accountId?: string }): Spend;
}

export function asSandbox(received: unknown, matcher: string): Asserted {
  const s = received as Partial<Asserted> | null;
  if (s && typeof s.journal?.entries === 'function' && typeof s.spend === 'function') return s as Asserted;
  throw new TypeError(`${matcher}: expect a sandbox (createSandbox, setupSandbox().sandbox).`);
}

/** Refuses an options object with a key the matcher does not take (a typo must not pass silently). */
export function checkKeys(value: unknown, allowed: readonly string[], what: string, matcher: string): void {
  if (value === undefined) return;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new TypeError(`${matcher}: the ${what} is an object.`);
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key))
      throw new TypeError(`${matcher}: unknown key '${key}' in the ${what}. It takes: ${allowed.join(', ')}.`);
  }
}

/** The runner's comparison (asymmetric matchers included). */
export function equalsOf(ctx: MatcherContext): Equals {
  return (actual, expected) => ctx.equals(actual, expected);
}

/** A value as the runner prints it (`ObjectContaining {…}` for an asymmetric matcher), else as JSON; keys masked. */
export function show(ctx: MatcherContext, value: unknown): string {
  if (value instanceof RegExp) return String(value);
  const text = ctx.utils?.stringify
    ? ctx.utils.stringify(value)
    : ((JSON.stringify(value) as string | undefined) ?? String(value));
  // A key in a pattern is masked as the journal masks it; a value over several lines keeps to the message's indent.
  return maskKeys(text).replace(/\n/g, '\n    ');
}

function diffLines(ctx: MatcherContext, diffs: FieldDiff[]): string[] {
  return diffs.map((d) => `      ${d.field}: expected ${show(ctx, d.expected)}, received ${show(ctx, d.actual)}`);
}

/** One request in a failure message: its line, then its trace. */
export function requestBlock(entry: JournalEntry, diffs: FieldDiff[] = [], ctx?: MatcherContext): string {
  const lines = [`  - ${entryLine(entry)}`, ...(ctx ? diffLines(ctx, diffs) : [])];
  lines.push(`      trace: ${traceSummary(entry.trace)}`);
  return lines.join('\n');
}

/** The closest requests to a pattern, with what differs; or a line saying there was nothing to compare with. */
export function nearMissText(
  ctx: MatcherContext,
  entries: readonly JournalEntry[],
  pattern: RequestPattern,
  basePath: string,
): string {
  if (entries.length === 0) return 'No request in scope (check `since`, `accountId` and the journal size).';
  const misses = nearMisses(entries, pattern, equalsOf(ctx), basePath);
  if (misses.length === 0) return '';
  return `Closest requests (sandbox.explain(id) gives the whole trace):\n${misses
    .map((m) => requestBlock(m.entry, m.diffs, ctx))
    .join('\n')}`;
}

/** `N requests` / `1 request`. */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
