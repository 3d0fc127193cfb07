/** The retention bound on stored tasks: a long-lived sandbox keeps the newest N finished tasks, not all of them. */
import { describe, expect, it } from 'vitest';
import { createSandboxCore, ERRORS, type SandboxCore } from '../../src/index.js';
import { parseCli } from '../../src/cli/args.js';

function request(sandbox: SandboxCore, method: string, path: string, body = '', extra: Record<string, string> = {}) {
  const key = sandbox.keys.list('acc_demo').find((k) => k.label === 'admin')!.key;
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, ...extra };
  const res = sandbox.handle({ method, path, query: '', header: (n) => headers[n], body, clientId: 'test' });
  return { status: res.status, json: JSON.parse(res.body) };
}

function createTasks(sandbox: SandboxCore, n: number): string[] {
  const agentId = sandbox.snapshot().agents[0]!.id;
  return Array.from(
    { length: n },
    (_, i) =>
      request(sandbox, 'POST', '/ext/tasks', JSON.stringify({ agent_id: agentId, description: `t${i}` })).json.id,
  );
}

describe('taskRetention', () => {
  it('keeps the newest N finished tasks; the one that finished first then reads 404 not_found', () => {
    const sandbox = createSandboxCore({ clock: 'manual', taskRetention: 2 });
    const [t1, t2, t3] = createTasks(sandbox, 3) as [string, string, string];
    sandbox.tasks.complete(t2);
    sandbox.tasks.complete(t1);
    expect(request(sandbox, 'GET', `/ext/tasks/${t2}`).status).toBe(200);
    sandbox.tasks.fail(t3);
    const gone = request(sandbox, 'GET', `/ext/tasks/${t2}`);
    expect(gone.status).toBe(ERRORS.not_found.status);
    expect(gone.json.error.code).toBe('not_found');
    expect(request(sandbox, 'GET', `/ext/tasks/${t1}`).status).toBe(200);
    expect(request(sandbox, 'GET', `/ext/tasks/${t3}`).status).toBe(200);
    // The usage figures keep counting what happened: dropping a stored task changes no bill.
    const usage = request(sandbox, 'GET', '/ext/usage').json;
    expect(usage.tasks.completed).toBe(2);
    expect(usage.tasks.failed).toBe(1);
  });

  it('never drops an unfinished task, even with a bound of 0', () => {
    const sandbox = createSandboxCore({ clock: 'manual', taskRetention: 0 });
    const ids = createTasks(sandbox, 5);
    for (const id of ids) expect(request(sandbox, 'GET', `/ext/tasks/${id}`).status).toBe(200);
    sandbox.clock.advance('1h');
    for (const id of ids) expect(request(sandbox, 'GET', `/ext/tasks/${id}`).status).toBe(404);
  });

  it('holds for tasks finished by the clock, and for state restored from a snapshot', () => {
    const big = createSandboxCore({ clock: 'manual', taskRetention: Infinity });
    const ids = createTasks(big, 50);
    big.clock.advance('1h');
    expect(big.tasks.list()).toHaveLength(50);
    const small = createSandboxCore({ clock: 'manual', taskRetention: 10 });
    small.restore(big.snapshot());
    const kept = small.tasks.list();
    expect(kept).toHaveLength(10);
    // The ten kept are the ten that finished last.
    const lastTen = big.tasks
      .list()
      .sort(
        (a, b) => Date.parse(a.completed_at!) - Date.parse(b.completed_at!) || ids.indexOf(a.id) - ids.indexOf(b.id),
      )
      .slice(-10)
      .map((t) => t.id);
    expect(kept.map((t) => t.id).sort()).toEqual(lastTen.sort());
  });

  it('an Idempotency-Key whose task was dropped is refused (400 invalid_request), not charged a second time', () => {
    const sandbox = createSandboxCore({ clock: 'manual', taskRetention: 1 });
    const agentId = sandbox.snapshot().agents[0]!.id;
    const body = JSON.stringify({ agent_id: agentId, description: 'once' });
    const first = request(sandbox, 'POST', '/ext/tasks', body, { 'idempotency-key': 'k1' });
    expect(first.status).toBe(201);
    expect(request(sandbox, 'POST', '/ext/tasks', body, { 'idempotency-key': 'k1' }).json.id).toBe(first.json.id);
    sandbox.tasks.complete(first.json.id);
    const [other] = createTasks(sandbox, 1);
    sandbox.tasks.complete(other!);
    expect(request(sandbox, 'GET', `/ext/tasks/${first.json.id}`).status).toBe(404);
    const before = sandbox.tasks.list().length;
    const again = request(sandbox, 'POST', '/ext/tasks', body, { 'idempotency-key': 'k1' });
    expect(again.status).toBe(400);
    expect(again.json.error.code).toBe('invalid_request');
    expect(again.json.error.message).toMatch(/Idempotency-Key/);
    expect(sandbox.tasks.list().length).toBe(before);
  });

  it('defaults to 10,000 and is a CLI option (--task-retention N)', () => {
    expect(parseCli([]).taskRetention).toBeUndefined();
    expect(parseCli(['--task-retention', '500']).taskRetention).toBe(500);
    expect(() => parseCli(['--task-retention', 'many'])).toThrow(/--task-retention must be an integer/);
    expect(() => createSandboxCore({ taskRetention: -1 })).toThrow(/taskRetention/);
  });
});
