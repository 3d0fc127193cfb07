import { describe, expect, it } from 'vitest';
import { SnapshotError, createSandbox } from '../../src/index.js';
import { ADMIN, OPTIONS, nano } from '../tasks-and-billing/support.js';

const auth = (key: string) => (n: string) => (n === 'authorization' ? `Bearer ${key}` : undefined);
type S = ReturnType<typeof createSandbox>;
const post = (s: S, key: string, body: unknown) =>
  JSON.parse(
    s.handle({
      method: 'POST',
      path: '/ext/tasks',
      query: '',
      clientId: 't',
      body: JSON.stringify(body),
      header: auth(key),
    }).body,
  );
const read = (s: S, key: string, path: string) =>
  s.handle({ method: 'GET', path, query: '', clientId: 't', body: '', header: auth(key) }).body;

/** A sandbox with a task in every status, holds outstanding, and a period rolled over once. */
function busySandbox(): { sandbox: S; ids: string[] } {
  const sandbox = createSandbox(OPTIONS);
  sandbox.clock.set('2026-01-31T23:59:00.000Z');
  const done = post(sandbox, ADMIN.pro, { agent_id: 'agt_fixed', description: 'done' }).id;
  const failed = post(sandbox, ADMIN.pro, { agent_id: 'agt_alpha', description: 'failed' }).id;
  sandbox.tasks.fail(failed);
  sandbox.clock.set('2026-02-01T00:00:30.000Z');
  const running = post(sandbox, ADMIN.pro, { agent_id: 'agt_charlie', description: 'running', priority: 'low' }).id;
  sandbox.clock.advance('1500ms');
  const queued = post(sandbox, ADMIN.enterprise, { agent_id: 'agt_bravo', description: 'queued' }).id;
  return { sandbox, ids: [done, failed, running, queued] };
}

describe('snapshot() and restore() cover tasks, holds and periods', () => {
  it('a snapshot is JSON; restored into a new sandbox it answers byte for byte the same, and goes on the same way', () => {
    const { sandbox, ids } = busySandbox();
    const statuses = ids.map((id) => sandbox.tasks.get(id)!.status);
    expect(statuses).toEqual(['completed', 'failed', 'running', 'queued']);
    expect(nano(sandbox.accounts.get('acc_pro')!.held_usd)).toBeGreaterThan(0);
    const snap = JSON.parse(JSON.stringify(sandbox.snapshot()));

    const copy = createSandbox({ ...OPTIONS, now: '2030-01-01T00:00:00.000Z' });
    copy.restore(snap);
    expect(copy.clock.now()).toBe(sandbox.clock.now());
    for (const id of ids) {
      const key = id === ids[3] ? ADMIN.enterprise : ADMIN.pro;
      expect(read(copy, key, `/ext/tasks/${id}`)).toBe(read(sandbox, key, `/ext/tasks/${id}`));
    }
    expect(copy.accounts.list()).toEqual(sandbox.accounts.list());
    expect(read(copy, ADMIN.pro, '/ext/usage')).toBe(read(sandbox, ADMIN.pro, '/ext/usage'));
    expect(JSON.parse(read(copy, ADMIN.pro, '/ext/usage')).period_start).toBe('2026-02-01T00:00:00.000Z');

    // The restored due moves run as the original's do: the same completion times, charges and holds released.
    sandbox.clock.advance('1m');
    copy.clock.advance('1m');
    for (const id of ids) expect(copy.tasks.get(id)).toEqual(sandbox.tasks.get(id));
    expect(copy.accounts.list()).toEqual(sandbox.accounts.list());
    expect(copy.accounts.get('acc_pro')!.held_usd).toBe(0);
    // And the next task gets the same id in both.
    expect(post(copy, ADMIN.pro, { agent_id: 'agt_fixed', description: 'next' }).id).toBe(
      post(sandbox, ADMIN.pro, { agent_id: 'agt_fixed', description: 'next' }).id,
    );
  });

  it('restore() brings a sandbox back to the snapshot, idempotency keys included', () => {
    const { sandbox } = busySandbox();
    const snap = sandbox.snapshot();
    const before = sandbox.accounts.list();
    const replay = (s: S) =>
      s.handle({
        method: 'POST',
        path: '/ext/tasks',
        query: '',
        clientId: 't',
        body: JSON.stringify({ agent_id: 'agt_fixed', description: 'keyed' }),
        header: (n) => (n === 'authorization' ? `Bearer ${ADMIN.pro}` : n === 'idempotency-key' ? 'k-1' : undefined),
      });
    const first = replay(sandbox);
    const withKey = sandbox.snapshot();
    post(sandbox, ADMIN.pro, { agent_id: 'agt_alpha', description: 'after the snapshot' });
    sandbox.restore(snap);
    expect(sandbox.accounts.list()).toEqual(before);
    expect(sandbox.tasks.list()).toHaveLength(4);
    sandbox.restore(withKey);
    const again = replay(sandbox);
    expect(again.headers['Idempotent-Replayed']).toBe('true');
    expect(JSON.parse(again.body).id).toBe(JSON.parse(first.body).id);
  });

  it('restore() of something that is not a snapshot throws SnapshotError and changes nothing', () => {
    const { sandbox } = busySandbox();
    const before = sandbox.snapshot();
    for (const bad of [null, {}, { format: 'agent-work-sandbox/state', version: 2 }, { ...before, tasks: 'none' }]) {
      // @ts-expect-error values that are not snapshots on purpose: checked at run time
      expect(() => sandbox.restore(bad)).toThrow(SnapshotError);
    }
    expect(sandbox.snapshot()).toEqual(before);
  });
});
