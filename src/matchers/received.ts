/** `toHaveReceived`, `toHaveReceivedInOrder`, `toHaveReceivedOnly`: what the client sent, counted from the journal. */
import type { Mark } from '../core/marks.js';
import {
  checkPattern,
  countHolds,
  describeCount,
  diffEntry,
  type CountRule,
  type RequestPattern,
} from '../core/request-pattern.js';
import {
  asSandbox,
  checkKeys,
  equalsOf,
  nearMissText,
  plural,
  requestBlock,
  show,
  type MatcherContext,
} from './context.js';

/** Which requests to look at: since a mark, of an account, of a key. */
export interface ReceivedScope {
  since?: Mark | string;
  accountId?: string;
  keyId?: string;
}

/** How many requests must match (none given: at least one). */
export interface ReceivedOptions extends ReceivedScope {
  times?: number;
  atLeast?: number;
  atMost?: number;
}

const SCOPE_KEYS = ['since', 'accountId', 'keyId'] as const;
const COUNT_KEYS = ['times', 'atLeast', 'atMost', ...SCOPE_KEYS] as const;

function scopeOf(options: ReceivedScope) {
  return { since: options.since, accountId: options.accountId, keyId: options.keyId };
}

function checkPatterns(patterns: unknown, matcher: string): asserts patterns is RequestPattern[] {
  if (!Array.isArray(patterns)) throw new TypeError(`${matcher}: give an array of request patterns.`);
  patterns.forEach((p, i) => checkPattern(p, `request pattern #${i + 1}`));
}

export function toHaveReceived(
  this: MatcherContext,
  received: unknown,
  pattern: RequestPattern,
  options: ReceivedOptions = {},
) {
  const sandbox = asSandbox(received, 'toHaveReceived');
  checkPattern(pattern);
  checkKeys(options, COUNT_KEYS, 'options', 'toHaveReceived');
  const rule: CountRule = { eq: options.times, gte: options.atLeast, lte: options.atMost };
  for (const [name, n] of Object.entries({ times: rule.eq, atLeast: rule.gte, atMost: rule.lte })) {
    if (n !== undefined && !(Number.isInteger(n) && n >= 0))
      throw new TypeError(`toHaveReceived: ${name} is a whole number ≥ 0; got ${JSON.stringify(n)}.`);
  }
  const entries = sandbox.journal.entries(scopeOf(options));
  const equals = equalsOf(this);
  const matched = entries.filter((e) => diffEntry(e, pattern, equals, sandbox.basePath).length === 0);
  const pass = countHolds(matched.length, rule);
  return {
    pass,
    message: () => {
      const head = `expected the sandbox ${this.isNot ? 'not ' : ''}to have received ${describeCount(rule)} ${
        rule.eq === 1 || (rule.eq === undefined && rule.gte === undefined) ? 'request' : 'requests'
      } matching\n  ${show(this, pattern)}\nbut it received ${plural(matched.length, 'matching request')} (of ${entries.length} in scope).`;
      const detail =
        matched.length > 0 && (pass || rule.lte !== undefined || rule.eq !== undefined)
          ? `Matching requests:\n${matched.map((e) => requestBlock(e)).join('\n')}`
          : nearMissText(this, entries, pattern, sandbox.basePath);
      return detail ? `${head}\n${detail}` : head;
    },
  };
}

export function toHaveReceivedInOrder(
  this: MatcherContext,
  received: unknown,
  patterns: RequestPattern[],
  options: ReceivedScope = {},
) {
  const sandbox = asSandbox(received, 'toHaveReceivedInOrder');
  checkPatterns(patterns, 'toHaveReceivedInOrder');
  checkKeys(options, SCOPE_KEYS, 'options', 'toHaveReceivedInOrder');
  const entries = sandbox.journal.entries(scopeOf(options));
  const equals = equalsOf(this);
  let at = 0;
  let missing: RequestPattern | undefined;
  const found: typeof entries = [];
  for (const pattern of patterns) {
    const next = entries.findIndex((e, j) => j >= at && diffEntry(e, pattern, equals, sandbox.basePath).length === 0);
    const entry = entries[next];
    if (next === -1 || entry === undefined) {
      missing = pattern;
      break;
    }
    found.push(entry);
    at = next + 1;
  }
  const pass = missing === undefined;
  return {
    pass,
    message: () => {
      const head = `expected the sandbox ${this.isNot ? 'not ' : ''}to have received, in this order:\n${patterns
        .map((p, i) => `  ${i + 1}. ${show(this, p)}`)
        .join('\n')}`;
      if (missing === undefined) return `${head}\nbut it did:\n${found.map((e) => requestBlock(e)).join('\n')}`;
      const last = found.at(-1);
      const before = last ? `after ${last.id} ` : '';
      const rest = entries.slice(at);
      return `${head}\nbut no request ${before}matches #${found.length + 1} (${plural(found.length, 'pattern')} found in order, of ${entries.length} requests in scope).\n${nearMissText(this, rest, missing, sandbox.basePath)}`;
    },
  };
}

export function toHaveReceivedOnly(
  this: MatcherContext,
  received: unknown,
  patterns: RequestPattern[],
  options: ReceivedScope = {},
) {
  const sandbox = asSandbox(received, 'toHaveReceivedOnly');
  checkPatterns(patterns, 'toHaveReceivedOnly');
  checkKeys(options, SCOPE_KEYS, 'options', 'toHaveReceivedOnly');
  const entries = sandbox.journal.entries(scopeOf(options));
  const equals = equalsOf(this);
  const diffsOf = (e: (typeof entries)[number]) => patterns.map((p) => diffEntry(e, p, equals, sandbox.basePath));
  const others = entries.flatMap((e) => {
    const diffs = diffsOf(e);
    if (diffs.some((d) => d.length === 0)) return [];
    return [{ entry: e, closest: diffs.reduce((a, b) => (b.length < a.length ? b : a), diffs[0] ?? []) }];
  });
  const pass = others.length === 0;
  return {
    pass,
    message: () => {
      const head = `expected every request in scope ${this.isNot ? 'not ' : ''}to match one of:\n${patterns
        .map((p, i) => `  ${i + 1}. ${show(this, p)}`)
        .join('\n')}`;
      if (pass) return `${head}\nbut all ${plural(entries.length, 'request')} in scope did.`;
      return `${head}\nbut ${plural(others.length, 'request')} of ${entries.length} matched none (each with its closest pattern's differences):\n${others
        .slice(0, 5)
        .map((o) => requestBlock(o.entry, o.closest, this))
        .join('\n')}${others.length > 5 ? `\n  … and ${others.length - 5} more` : ''}`;
    },
  };
}
