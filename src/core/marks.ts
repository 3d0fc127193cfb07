/**
 * Marks: a point in a sandbox's history that assertions count from (`sandbox.mark()`, `POST /__sandbox/marks`). A mark
 * holds the journal position (the last request id), the last task number, the time and each account's books, and may
 * carry a scope (an account or a key), so that tests running side by side on one sandbox each see their own traffic.
 */
import { SandboxError } from '../errors.js';
import { nanoToUsd } from '../model/money.js';
import type { State } from '../model/state.js';
import type { JournalEntry } from './journal.js';

export interface Mark {
  /** `mark_1`, `mark_2`…: what the control API names it by (`since=`). */
  id: string;
  /** ISO 8601 UTC, sandbox clock. */
  at: string;
  /** The number of the last request handled before the mark (requests after it are `req_…` above it). */
  requestSeq: number;
  /** The number of the last task created before the mark. */
  taskSeq: number;
  /** Only this account's requests and tasks count from this mark. */
  accountId?: string;
  /** Only this key's requests count from this mark. */
  keyId?: string;
  /** Each account's books at the mark: charged this billing period and held by unfinished tasks, USD. */
  accounts: Record<string, { chargedUsd: number; heldUsd: number }>;
}

/** Which requests an assertion looks at: since a mark (its scope included), of an account, of a key. */
export interface AssertionScope {
  since?: Mark | string;
  accountId?: string;
  keyId?: string;
}

/** A new mark of the state as it is now. */
export function takeMark(
  state: State,
  at: { id: string; now: string; requestSeq: number },
  scope: { accountId?: string; keyId?: string } = {},
): Mark {
  const { id, now, requestSeq } = at;
  if (scope.accountId !== undefined && !state.accounts.has(scope.accountId))
    throw new SandboxError(`No account '${scope.accountId}'.`, 'not_found');
  if (scope.keyId !== undefined && !state.keysById.has(scope.keyId))
    throw new SandboxError(`No key '${scope.keyId}'.`, 'not_found');
  const accounts: Mark['accounts'] = {};
  for (const a of state.accounts.values())
    accounts[a.id] = { chargedUsd: nanoToUsd(a.usage.costNano), heldUsd: nanoToUsd(a.heldNano) };
  const mark: Mark = { id, at: now, requestSeq, taskSeq: state.counters.task, accounts };
  if (scope.accountId !== undefined) mark.accountId = scope.accountId;
  if (scope.keyId !== undefined) mark.keyId = scope.keyId;
  return mark;
}

/** The number in a request id (`req_000042` → 42). */
const requestNumber = (id: string): number => Number(id.slice(id.indexOf('_') + 1));

/** Whether a journal entry is in scope: after the mark, of the mark's and the scope's account and key. */
export function inScope(entry: JournalEntry, mark: Mark | undefined, scope: AssertionScope): boolean {
  if (mark) {
    if (requestNumber(entry.id) <= mark.requestSeq) return false;
    if (mark.accountId !== undefined && entry.accountId !== mark.accountId) return false;
    if (mark.keyId !== undefined && entry.keyId !== mark.keyId) return false;
  }
  if (scope.accountId !== undefined && entry.accountId !== scope.accountId) return false;
  return scope.keyId === undefined || entry.keyId === scope.keyId;
}
