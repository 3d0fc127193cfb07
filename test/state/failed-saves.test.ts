/**
 * A failed save is never acknowledged: with `--state-sync always` the write answers 503 `service_unavailable` and the
 * state in memory stays as the file has it; with an interval the failure shows in the log, the overview and the
 * inspector's data. The writer is replaced by a failing one here (below the file layer), so this runs everywhere.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import type { StateSnapshot } from '../../src/model/state.js';
import { createStateSaver, type StateSync } from '../../src/server/durable-state.js';
import { listen, type SandboxServer } from '../../src/server/listen.js';

const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

let server: SandboxServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A sandbox served with a saver whose "disk" is a variable; `full` makes every write fail. */
async function serveWithDisk(sync: StateSync) {
  const sandbox = createSandbox({ clock: 'manual' });
  const disk = { file: undefined as StateSnapshot | undefined, full: false, errors: [] as string[] };
  const saver = createStateSaver({
    path: '/virtual/state.json',
    sync,
    snapshot: () => sandbox.snapshot(),
    onError: (e) => disk.errors.push(e.message),
    rollback: () => sandbox.restore(disk.file!),
    write: (_path, snapshot) => {
      if (disk.full) throw enospc();
      disk.file = structuredClone(snapshot);
    },
  });
  server = await listen(sandbox, { beforeAnswer: saver.beforeAnswer, stateFileStatus: saver.status });
  const key = sandbox.keys.list('acc_demo').find((k) => k.label === 'admin')!.key;
  const agentId = sandbox.snapshot().agents[0]!.id;
  const post = (path: string, body: unknown, auth = true) =>
    fetch(`${server!.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
    });
  const task = () => post('/api/v1/ext/tasks', { agent_id: agentId, description: 'keep me' });
  return { sandbox, disk, saver, post, task, url: server.url };
}

describe('--state-sync always: a save that fails is never acknowledged', () => {
  it('answers 503 service_unavailable in the error shape, and the task is not in memory either', async () => {
    const { sandbox, disk, task } = await serveWithDisk('always');
    expect((await task()).status).toBe(201);
    const before = sandbox.tasks.list().map((t) => t.id);
    disk.full = true;
    const refused = await task();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('x-ratelimit-limit')).not.toBeNull(); // the API's headers are kept
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(Object.keys(body)).toEqual(['error']);
    expect(body.error.code).toBe('service_unavailable');
    expect(body.error.message).toMatch(/could not be saved/);
    expect(sandbox.tasks.list().map((t) => t.id)).toEqual(before);
    expect(disk.errors[0]).toMatch(/ENOSPC/);
    disk.full = false;
    expect((await task()).status).toBe(201); // a careful client's retry works once the disk has room
    expect(disk.file!.tasks).toHaveLength(before.length + 1);
  });

  it('refuses a control-API write the same way (the express side)', async () => {
    const { sandbox, disk, post } = await serveWithDisk('always');
    expect((await post('/__sandbox/accounts', { name: 'Saved' }, false)).status).toBe(201);
    const accounts = sandbox.accounts.list().length;
    disk.full = true;
    const refused = await post('/__sandbox/accounts', { name: 'Lost' }, false);
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('service_unavailable');
    expect(sandbox.accounts.list()).toHaveLength(accounts);
  });

  it('acknowledges every write of a careful client while the disk has room (no false positive)', async () => {
    const { disk, task } = await serveWithDisk('always');
    for (let i = 0; i < 5; i++) expect((await task()).status).toBe(201);
    expect(disk.errors).toEqual([]);
  });
});

describe('--state-sync with an interval: a failing save is loud', () => {
  it('shows in the status, the overview and the inspector data, and clears once a save works', async () => {
    const { disk, saver, task, url } = await serveWithDisk(1000);
    expect((await task()).status).toBe(201);
    disk.full = true;
    saver.flush();
    expect(disk.errors[0]).toMatch(/ENOSPC/);
    const overview = (await (await fetch(`${url}/__sandbox/overview`)).json()) as {
      state_file: { failing_since: string | null; last_error: string; failed_saves: number };
    };
    expect(overview.state_file.failing_since).not.toBeNull();
    expect(overview.state_file.last_error).toMatch(/ENOSPC/);
    expect(overview.state_file.failed_saves).toBe(1);
    const live = (await (await fetch(`${url}/__sandbox/inspector/live`)).json()) as {
      state_file: { failing_since: string | null };
    };
    expect(live.state_file.failing_since).toBe(overview.state_file.failing_since);
    disk.full = false;
    expect((await task()).status).toBe(201);
    saver.flush();
    expect(saver.status().failing_since).toBeNull();
    expect(saver.status().last_saved_at).not.toBeNull();
  });

  it('shows no state file in the overview of a sandbox without one', async () => {
    const sandbox = createSandbox();
    server = await listen(sandbox);
    const overview = (await (await fetch(`${server.url}/__sandbox/overview`)).json()) as { state_file: unknown };
    expect(overview.state_file).toBeNull();
  });
});
