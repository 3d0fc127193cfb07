/** `toHaveSpent`: what the tasks of a test cost, from the books (charged, held, refunded), with the tasks behind it. */
import type { Mark } from '../core/marks.js';
import type { Spend } from '../core/spend.js';
import { asSandbox, checkKeys, plural, type MatcherContext } from './context.js';

/** A figure: exactly this, or within bounds. */
export type SpendBound = number | { lte?: number; gte?: number };

/** The figures to hold: USD (charged plus still held), tokens charged, tasks created. */
export interface SpendExpectation {
  usd?: SpendBound;
  tokens?: SpendBound;
  tasks?: SpendBound;
}

export interface SpendOptions {
  accountId?: string;
  since?: Mark | string;
}

const FIGURES = ['usd', 'tokens', 'tasks'] as const;

/** Nano-dollars: USD figures compare exactly, whatever the float sums. */
const units = (figure: (typeof FIGURES)[number], n: number) => (figure === 'usd' ? Math.round(n * 1e9) : n);

function checkBound(figure: string, bound: unknown): void {
  if (typeof bound === 'number' && Number.isFinite(bound)) return;
  checkKeys(bound, ['lte', 'gte'], `bound of '${figure}'`, 'toHaveSpent');
  const b = bound as { lte?: unknown; gte?: unknown };
  if (
    (b.lte === undefined && b.gte === undefined) ||
    [b.lte, b.gte].some((v) => v !== undefined && !Number.isFinite(v))
  )
    throw new TypeError(`toHaveSpent: '${figure}' is a number or { lte?, gte? } with at least one number.`);
}

function holds(figure: (typeof FIGURES)[number], actual: number, bound: SpendBound): boolean {
  const a = units(figure, actual);
  if (typeof bound === 'number') return a === units(figure, bound);
  return (
    (bound.lte === undefined || a <= units(figure, bound.lte)) &&
    (bound.gte === undefined || a >= units(figure, bound.gte))
  );
}

const showBound = (bound: SpendBound): string =>
  typeof bound === 'number'
    ? `= ${bound}`
    : [bound.gte === undefined ? '' : `≥ ${bound.gte}`, bound.lte === undefined ? '' : `≤ ${bound.lte}`]
        .filter(Boolean)
        .join(' and ');

function breakdown(spend: Spend): string {
  const head = `spent $${spend.usd} (charged $${spend.chargedUsd}, held $${spend.heldUsd}, refunded $${spend.refundedUsd}), ${plural(spend.tokens, 'token')}, ${plural(spend.tasks, 'task')}`;
  if (spend.byTask.length === 0) return `${head}.`;
  const rows = spend.byTask.map(
    (t) =>
      `  - ${t.taskId} (${t.accountId}, ${t.status}): charged $${t.chargedUsd}, held $${t.heldUsd}, refunded $${t.refundedUsd}, ${plural(t.tokens, 'token')}`,
  );
  return `${head}, made of:\n${rows.join('\n')}`;
}

export function toHaveSpent(
  this: MatcherContext,
  received: unknown,
  expected: SpendExpectation,
  options: SpendOptions = {},
) {
  const sandbox = asSandbox(received, 'toHaveSpent');
  checkKeys(expected, FIGURES, 'expected spend', 'toHaveSpent');
  checkKeys(options, ['accountId', 'since'], 'options', 'toHaveSpent');
  const given = FIGURES.flatMap((f) => {
    const bound = expected[f];
    return bound === undefined ? [] : [{ figure: f, bound }];
  });
  if (given.length === 0) throw new TypeError('toHaveSpent: name at least one of usd, tokens, tasks.');
  for (const g of given) checkBound(g.figure, g.bound);
  const spend = sandbox.spend({ since: options.since, accountId: options.accountId });
  const failed = given.filter((g) => !holds(g.figure, spend[g.figure], g.bound)).map((g) => g.figure);
  const pass = failed.length === 0;
  return {
    pass,
    message: () => {
      const wanted = given.map((g) => `${g.figure} ${showBound(g.bound)}`).join(', ');
      const off = pass ? '' : ` (${failed.map((f) => `${f} is ${spend[f]}`).join(', ')})`;
      return `expected the sandbox ${this.isNot ? 'not ' : ''}to have spent ${wanted}${
        options.accountId ? ` on ${options.accountId}` : ''
      }, but it ${breakdown(spend)}${off ? `\nOff: ${off.slice(2, -1)}` : ''}`;
    },
  };
}
