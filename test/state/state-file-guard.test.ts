/**
 * The state file over the CLI: every acknowledged write is on a full disk after kill -9, one writer per state file,
 * files made 0600, and SIGHUP / SIGQUIT save like SIGTERM.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { saveRescueFile, saveStateFile } from '../../src/server/state-file.js';
import { createSandbox } from '../../src/index.js';
import { cliKey, httpCall, startCli, type CliServer } from '../server/cli-server.js';
import { tempDir } from '../support/temp.js';

const dir = tempDir('aws-guard-');
const started: CliServer[] = [];
afterAll(() => {
  for (const cli of started) cli.proc.kill('SIGKILL');
});

async function start(args: string[]): Promise<CliServer> {
  const cli = await startCli(args);
  started.push(cli);
  return cli;
}

const tasksIn = (file: string) =>
  new Set((JSON.parse(readFileSync(file, 'utf8')) as { tasks: { id: string }[] }).tasks.map((t) => t.id));

/** The lock is a symbolic link to a pid (not a path): lstat, not existsSync, sees it. */
const lockExists = (file: string) => lstatSync(`${file}.lock`, { throwIfNoEntry: false }) !== undefined;

const root = process.getuid?.() === 0 && process.platform === 'linux';

describe('--state-sync always on a full disk', () => {
  it.skipIf(!root)(
    'every acknowledged write is on the disk after kill -9; the others answered 503 (a 256 KiB tmpfs; needs root)',
    async () => {
      const mnt = join(dir, 'small');
      mkdirSync(mnt);
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mnt], { stdio: 'ignore' });
      try {
        const file = join(mnt, 'state.json');
        const cli = await start(['--state', file, '--state-sync', 'always', '--clock', 'manual']);
        const key = await cliKey(cli.origin);
        const agentId = (await httpCall(cli.origin, 'GET', '/__sandbox/state')).json.agents[0].id as string;
        const acknowledged: string[] = [];
        const statuses = new Map<number, number>();
        for (let i = 0; i < 120 && (statuses.get(503) ?? 0) < 10; i++) {
          const res = await httpCall(cli.origin, 'POST', '/api/v1/ext/tasks', {
            headers: { authorization: `Bearer ${key}` },
            body: { agent_id: agentId, description: `task ${i} ${'x'.repeat(1500)}` },
          });
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status === 201) acknowledged.push(res.json.id as string);
          else expect(res.json.error.code).toBe('service_unavailable');
        }
        expect(acknowledged.length).toBeGreaterThan(0);
        expect(statuses.get(503)).toBe(10); // the disk did fill up
        expect(cli.stderr()).toMatch(/ENOSPC.*The change was refused \(503\)/);
        cli.proc.kill('SIGKILL');
        await cli.exited;
        const saved = tasksIn(file);
        for (const id of acknowledged) expect(saved.has(id)).toBe(true);
      } finally {
        execFileSync('umount', [mnt], { stdio: 'ignore' });
      }
    },
    60_000,
  );
});

describe('one writer per state file', () => {
  it('a second server on the same file is refused, naming the file and the pid that holds it', async () => {
    const file = join(dir, 'shared.json');
    const first = await start(['--state', file]);
    await expect(startCli(['--state', file])).rejects.toThrow(
      new RegExp(`exited with 1: .*state file ${file} is in use by another sandbox \\(pid ${first.proc.pid}\\)`),
    );
    first.proc.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(lockExists(file)).toBe(false); // released at exit
    const again = await start(['--state', file]); // a careful user's next start works
    again.proc.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  });

  it('a lock left by a process that was killed (kill -9) is taken over', async () => {
    const file = join(dir, 'stale.json');
    const first = await start(['--state', file]);
    first.proc.kill('SIGKILL');
    await first.exited;
    expect(lockExists(file)).toBe(true);
    const second = await start(['--state', file]);
    second.proc.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('a lock naming a pid that does not run is stale too', async () => {
    const file = join(dir, 'ghost.json');
    symlinkSync('999999999', `${file}.lock`);
    const cli = await start(['--state', file]);
    cli.proc.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
  });
});

describe('state and rescue files are created 0600', () => {
  it.skipIf(process.platform === 'win32')('readable by their owner only', () => {
    const snapshot = createSandbox().snapshot();
    const file = join(dir, 'mode.json');
    saveStateFile(file, snapshot);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const rescue = saveRescueFile(snapshot)!;
    expect(statSync(rescue).mode & 0o777).toBe(0o600);
    rmSync(rescue);
  });
});

describe('SIGHUP and SIGQUIT save like SIGTERM', () => {
  for (const signal of ['SIGHUP', 'SIGQUIT'] as const) {
    it.skipIf(process.platform === 'win32')(`${signal} (--state-sync exit): the state is saved, exit 0`, async () => {
      const file = join(dir, `${signal}.json`);
      const cli = await start(['--state', file, '--state-sync', 'exit']);
      const res = await httpCall(cli.origin, 'POST', '/__sandbox/accounts', { body: { name: signal } });
      expect(res.status).toBe(201);
      cli.proc.kill(signal);
      expect(await cli.exited).toBe(0);
      const accounts = (JSON.parse(readFileSync(file, 'utf8')) as { accounts: { id: string }[] }).accounts;
      expect(accounts.map((a) => a.id)).toContain(res.json.id);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    });
  }
});
