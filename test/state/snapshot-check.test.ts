/**
 * A state snapshot's tasks are checked and turned into records one at a time (src/model/snapshot-check.ts), so that a
 * large state file has no checked copy of its whole task list alive. The error stays the one a check of the whole
 * snapshot reports: the first wrong field in the snapshot's order, and only then a record naming no account.
 */
import { describe, expect, it } from 'vitest';
import { SnapshotError, createSandbox, type StateSnapshot } from '../../src/index.js';
import { ADMIN, OPTIONS } from '../tasks-and-billing/support.js';

type Snap = StateSnapshot & Record<string, unknown>;

/** A snapshot with three tasks, and a sandbox holding a different state to restore it into. */
function setup(): { snap: Snap; target: ReturnType<typeof createSandbox> } {
  const source = createSandbox(OPTIONS);
  for (const description of ['one', 'two', 'three'])
    source.handle({
      method: 'POST',
      path: '/ext/tasks',
      query: '',
      clientId: 't',
      body: JSON.stringify({ agent_id: 'agt_fixed', description }),
      header: (n) => (n === 'authorization' ? `Bearer ${ADMIN.pro}` : undefined),
    });
  const target = createSandbox({ ...OPTIONS, seed: 99 });
  return { snap: source.snapshot() as Snap, target };
}

/** The error `restore()` throws for the snapshot as `change` leaves it; the target's state must not have changed. */
function refusal(change: (snap: Snap) => void): string {
  const { snap, target } = setup();
  change(snap);
  const before = JSON.stringify(target.snapshot());
  let message = '';
  try {
    target.restore(snap);
  } catch (error) {
    expect(error).toBeInstanceOf(SnapshotError);
    message = (error as Error).message;
  }
  expect(JSON.stringify(target.snapshot())).toBe(before);
  return message;
}

describe('restore() checks a state snapshot task by task, with the errors of a check of the whole', () => {
  it('a bad task in a state file names its path and changes nothing, even after earlier tasks were read', () => {
    expect(refusal((s) => ((s.tasks[2] as unknown as Record<string, unknown>).priority = 'whenever'))).toMatch(
      /^Invalid state snapshot: "tasks\.2\.priority" /,
    );
    expect(refusal((s) => ((s.tasks as unknown[])[1] = null))).toMatch(/^Invalid state snapshot: "tasks\.1" /);
  });

  it('a wrong field before the tasks is named before a bad task; a wrong field after them, after it', () => {
    const badAgent = (s: Snap) => ((s.agents[0] as unknown as Record<string, unknown>).status = 'gone');
    const badTask = (s: Snap) => ((s.tasks[1] as unknown as Record<string, unknown>).seq = 'x');
    const badCounters = (s: Snap) => ((s.counters as Record<string, unknown>).task = 'x');
    expect(refusal((s) => (badAgent(s), badTask(s)))).toMatch(/"agents\.0\.status"/);
    expect(refusal((s) => (badCounters(s), badTask(s)))).toMatch(/"tasks\.1\.seq"/);
    expect(refusal(badCounters)).toMatch(/"counters\.task"/);
  });

  it('a record naming no account of the state is refused only when every field has its shape: keys, then tasks', () => {
    const orphanKey = (s: Snap) => (s.keys[0]!.accountId = 'acc_gone');
    const orphanTask = (s: Snap) => ((s.tasks[2] as unknown as Record<string, unknown>).accountId = 'acc_none');
    const badTask = (s: Snap) => ((s.tasks[0] as unknown as Record<string, unknown>).inputTokens = 1.5);
    expect(refusal(orphanTask)).toBe(
      `Invalid state snapshot: "tasks.2.accountId" names no account of the state ('acc_none').`,
    );
    expect(refusal((s) => (orphanTask(s), orphanKey(s)))).toMatch(/"keys\.0\.accountId" names no account/);
    expect(refusal((s) => (orphanTask(s), badTask(s)))).toMatch(/"tasks\.0\.inputTokens" /);
  });
});
