/**
 * What the tasks of a test spent, from the books: for each task created since a mark, what was charged, what is still
 * held against the balance, and what a hold gave back (the whole hold of a failed task, the part of a completed
 * task's hold above its charge). `sandbox.spend()`, `toHaveSpent` and `GET /__sandbox/spend` read it.
 */
import { nanoToUsd } from '../model/money.js';
import type { State } from '../model/state.js';
import type { TaskStatus } from '../model/types.js';

/** One task's share of a spend. */
export interface TaskSpend {
  taskId: string;
  accountId: string;
  status: TaskStatus;
  chargedUsd: number;
  /** Still held: the task is unfinished (its estimate, at most what it will be charged). */
  heldUsd: number;
  /** Held once and given back at the task's end. */
  refundedUsd: number;
  /** Tokens charged (input and output; zero until the task completes). */
  tokens: number;
}

/** The money and tokens of the tasks created since a mark. */
export interface Spend {
  /** Charged plus still held: what the tasks cost or may still cost. */
  usd: number;
  chargedUsd: number;
  heldUsd: number;
  refundedUsd: number;
  /** Tokens charged. */
  tokens: number;
  /** How many tasks were created. */
  tasks: number;
  byTask: TaskSpend[];
}

/** The spend of the tasks after task number `afterTaskSeq` (of one account, when given). */
export function spendOf(state: State, afterTaskSeq: number, accountId?: string): Spend {
  let charged = 0;
  let held = 0;
  let refunded = 0;
  let tokens = 0;
  const byTask: TaskSpend[] = [];
  const tasks = [...state.tasks.values()].filter(
    (t) => t.seq > afterTaskSeq && (accountId === undefined || t.accountId === accountId),
  );
  for (const task of tasks.sort((a, b) => a.seq - b.seq)) {
    const back = task.ended ? task.plannedHoldNano - task.costNano : 0;
    const used = task.inputTokensCharged + task.outputTokensCharged;
    charged += task.costNano;
    held += task.holdNano;
    refunded += Math.max(0, back);
    tokens += used;
    byTask.push({
      taskId: task.id,
      accountId: task.accountId,
      status: task.status,
      chargedUsd: nanoToUsd(task.costNano),
      heldUsd: nanoToUsd(task.holdNano),
      refundedUsd: nanoToUsd(Math.max(0, back)),
      tokens: used,
    });
  }
  return {
    usd: nanoToUsd(charged + held),
    chargedUsd: nanoToUsd(charged),
    heldUsd: nanoToUsd(held),
    refundedUsd: nanoToUsd(refunded),
    tokens,
    tasks: byTask.length,
    byTask,
  };
}
