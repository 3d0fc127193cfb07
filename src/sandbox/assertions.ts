/** `sandbox.mark()`, `sandbox.journal` and `sandbox.spend()`: what the assertions of a test read. */
import type { Engine } from '../core/engine.js';
import { iso } from '../core/iso.js';
import { summarise, type SummaryLine } from '../core/journal-summary.js';
import { inScope, takeMark, type AssertionScope, type Mark } from '../core/marks.js';
import { spendOf, type Spend } from '../core/spend.js';
import type { JournalEntry } from '../core/journal.js';
import { SandboxError } from '../errors.js';

/** Marks kept for lookup by id (the control API's `since=`); the oldest are forgotten beyond it. */
const MARKS_KEPT = 10_000;

export function assertionsApi(engine: Engine) {
  const marks = new Map<string, Mark>();
  let count = 0;
  const resolve = (since: Mark | string | undefined): Mark | undefined => {
    if (since === undefined || typeof since === 'object') return since;
    const found = marks.get(since);
    if (!found) throw new SandboxError(`No mark '${since}' (marks are forgotten on reset).`, 'not_found');
    return found;
  };
  const entries = (scope: AssertionScope = {}): JournalEntry[] => {
    const mark = resolve(scope.since);
    return engine.journal.list().filter((e) => inScope(e, mark, scope));
  };
  const mark = (scope: { accountId?: string; keyId?: string } = {}): Mark => {
    count += 1;
    const taken = takeMark(
      engine.state,
      { id: `mark_${count}`, now: iso(engine.clock.now()), requestSeq: engine.requestSeq },
      scope,
    );
    marks.set(taken.id, taken);
    if (marks.size > MARKS_KEPT) marks.delete(marks.keys().next().value as string);
    return taken;
  };
  const spend = (scope: { since?: Mark | string; accountId?: string } = {}): Spend => {
    const from = resolve(scope.since);
    const accountId = scope.accountId ?? from?.accountId;
    // A mark of one account and a scope of another: nothing is in both.
    if (from?.accountId !== undefined && accountId !== from.accountId) return spendOf(engine.state, Infinity);
    return spendOf(engine.state, from?.taskSeq ?? 0, accountId);
  };
  const summary = (scope: Omit<AssertionScope, 'keyId'> = {}): SummaryLine[] =>
    summarise(entries(scope), engine.basePath);
  return {
    /** What the sandbox object shows. */
    surface: { mark, journal: { entries, summary }, spend },
    /** Forgets every mark (`reset()`). */
    clear(): void {
      marks.clear();
      count = 0;
    },
  };
}
