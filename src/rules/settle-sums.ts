/**
 * Settling a big jump when nobody listens to the moves (no task event is made): the order of the moves then shows in
 * two places only, each account's books and the order in which tasks count as finished (retention drops the first
 * finished). A move's effect on its own task does not depend on any other task. So:
 * - the moves are applied to their tasks in the order the due queue hands them out (no sort of every move);
 * - each account's books are brought up to date in one sum where no order can change them: no period end inside the
 *   jump (so no credits and no usage reset between moves), no clamp at zero (the holds and costs summed leave the held
 *   amount and the balance ≥ 0, and every subtraction makes them smaller), and integral amounts (so the sums are
 *   exact, whatever the order); otherwise that account's ends are replayed on its books in time order. A start only
 *   moves a task from the queued count to the running one, which a new period carries over: its count is a sum in
 *   every case, and its time matters only as the latest time the account's period is brought to;
 * - only the ends are sorted, by the queue's key (time, then order), to add the tasks to the finished list in the
 *   order they finished, when that order can be seen: under a retention bound (which drops the first finished).
 * The result is the same books, the same tasks and the same finished list as popping the moves one by one
 * (test/tasks-and-billing/settle-sums.test.ts compares the snapshots). It stays because popping every move of a big
 * jump is too slow for the 100,000-task guard (docs/decisions/performance.md).
 */
import type { Fifo } from '../model/fifo.js';
import type { TaskRecord } from '../model/task-record.js';
import type { Account } from '../model/types.js';
import { syncPeriod } from './accounts.js';
import { Batch, sortedPositions } from './move-batch.js';
import type { TaskEnv } from './task-env.js';
import { chargeEnd, endTask, startTask } from './task-moves.js';

/** One account's part of a jump, summed. */
class Books {
  started = 0;
  /** The latest start (a start after the period's end begins the next period even with no end after it). */
  lastStart = -Infinity;
  ended = 0;
  completed = 0;
  failed = 0;
  inputTokens = 0;
  outputTokens = 0;
  cost = 0;
  hold = 0;
  integral = true;

  constructor(
    readonly accountId: string,
    readonly account: Account | undefined,
  ) {}
}

/** The moves of one jump, applied as the due queue hands them out. */
class Jump {
  readonly books = new Map<string, Books>();
  /** The tasks ended, in the order their ends were applied (sorted only when that order can be seen). */
  readonly ended: TaskRecord[] = [];
  /**
   * Where each of `ended` falls among the moves: its end's time, or its start's when due before its start. A typed
   * array sized once: each queued move makes one end at most (its own, or its task's right after its start), so there
   * are no more ends than moves queued. A plain array of epoch-ms doubles boxes each one as it is pushed, a large
   * share of a big `clock.advance`.
   */
  readonly endKeys: Float64Array;
  /** Ends beyond `now` of the tasks that start: queued once the due queue has handed out its moves. */
  readonly later: TaskRecord[] = [];
  private last: Books | undefined;

  constructor(
    private readonly accounts: Map<string, Account>,
    private readonly now: number,
    /** Without a retention bound, the finished list's order is not read: ends go in as they are applied. */
    private readonly finished: Fifo<TaskRecord> | undefined,
    /** The moves queued: as many ends at most. */
    queued: number,
  ) {
    this.endKeys = new Float64Array(Math.max(16, queued));
  }

  readonly take = (at: number, order: number, task: TaskRecord): void => {
    // A task dropped (retention) or ended early (control API) has ended: its planned moves change nothing.
    if (task.ended) return;
    const b = this.booksOf(task.accountId);
    if (order % 2 !== 0) {
      if (task.queued) this.started(task, at, b);
      this.end(task, at, b);
      return;
    }
    this.started(task, at, b);
    // Its end, as settleDue plans it at the start: before the start (then at once), by `now`, or queued.
    const endAt = task.endAt;
    if (endAt < at) this.end(task, endAt, b, at);
    else if (endAt <= this.now) this.end(task, endAt, b);
    else this.later.push(task);
  };

  private booksOf(accountId: string): Books {
    if (this.last?.accountId === accountId) return this.last;
    let b = this.books.get(accountId);
    if (b === undefined) {
      b = new Books(accountId, this.accounts.get(accountId));
      this.books.set(accountId, b);
    }
    this.last = b;
    return b;
  }

  private started(task: TaskRecord, at: number, b: Books): void {
    if (!task.queued) return;
    startTask(task, at);
    b.started += 1;
    if (at > b.lastStart) b.lastStart = at;
  }

  /** An end at `at`; `keyAt`: where it falls among the moves (an end due before its start follows the start at once). */
  private end(task: TaskRecord, at: number, b: Books, keyAt = at): void {
    const outcome = task.outcome;
    const hold = endTask(task, at, outcome);
    b.ended += 1;
    b.hold += hold;
    if (outcome === 'completed') {
      const cost = task.plannedCostNano;
      b.completed += 1;
      b.cost += cost;
      b.inputTokens += task.inputTokens;
      b.outputTokens += task.plannedOutputTokens;
      if (!Number.isInteger(cost)) b.integral = false;
    } else b.failed += 1;
    if (!Number.isInteger(hold)) b.integral = false;
    this.endKeys[this.ended.length] = keyAt;
    this.ended.push(task);
    this.finished?.add(task);
  }
}

/** The ends of a jump with the due queue's keys (time, order `seq * 2 + 1`) and the hold each released. */
function endsOf({ ended, endKeys }: Jump): Batch {
  return Batch.of(
    ended,
    (i) => endKeys[i] as number,
    (task) => task.seq * 2 + 1,
    (task) => task.plannedHoldNano,
  );
}

/** Applies every move due at `now`, in bulk (the retention bound is the caller's). Makes no task event. */
export function settleBySums(env: TaskEnv, now: number): void {
  const { due, accounts, finished } = env.state;
  // The finished list's order is seen only by a retention bound (which drops the first finished).
  const bounded = (env.taskRetention ?? Infinity) !== Infinity;
  const jump = new Jump(accounts, now, bounded ? undefined : finished, due.size);
  due.takeDue(now, jump.take);
  for (const task of jump.later) due.push(task.endAt, task, task.seq, 'end');
  let sorted: { ends: Batch; positions: ArrayLike<number> } | undefined;
  const inOrder = () => {
    if (sorted) return sorted;
    const ends = endsOf(jump);
    return (sorted = { ends, positions: sortedPositions(ends) });
  };
  for (const b of jump.books.values()) if (b.account) closeBooks(b.account, b, inOrder, now);
  if (bounded) {
    const { ends, positions } = inOrder();
    for (let k = 0; k < positions.length; k++) finished.add(ends.tasks[positions[k] as number] as TaskRecord);
  }
}

/** The account's books after the jump: one sum where the order cannot matter, else its ends replayed in order. */
function closeBooks(
  account: Account,
  b: Books,
  inOrder: () => { ends: Batch; positions: ArrayLike<number> },
  now: number,
): void {
  const usage = account.usage;
  const orderFree =
    now < account.periodEnd &&
    b.integral &&
    Number.isInteger(account.balanceNano) &&
    Number.isInteger(account.heldNano) &&
    Number.isInteger(usage.costNano) &&
    account.heldNano - b.hold >= 0 &&
    account.balanceNano - b.cost >= 0;
  if (orderFree) {
    usage.tasks.completed += b.completed;
    usage.tasks.failed += b.failed;
    usage.inputTokens += b.inputTokens;
    usage.outputTokens += b.outputTokens;
    usage.costNano += b.cost;
    account.heldNano -= b.hold;
    account.balanceNano -= b.cost;
  } else replay(account, b.accountId, inOrder());
  syncPeriod(account, b.lastStart);
  // A new period carries the queued and running counts over: their changes are sums in any order.
  const counts = account.usage.tasks;
  counts.queued -= b.started;
  counts.running += b.started - b.ended;
}

/** The account's ends of the jump applied to its books in time order, exactly as settling one by one does. */
function replay(
  account: Account,
  accountId: string,
  { ends, positions }: { ends: Batch; positions: ArrayLike<number> },
): void {
  for (let k = 0; k < positions.length; k++) {
    const i = positions[k] as number;
    const task = ends.tasks[i] as TaskRecord;
    if (task.accountId !== accountId) continue;
    syncPeriod(account, ends.at[i] as number);
    chargeEnd(account, task, ends.hold[i] as number, task.outcome);
  }
}

/** From this many due moves on (or an eighth of the queue, if more than 256), a quiet settle takes them by sums. */
export const SUMS_MIN = 4096;
