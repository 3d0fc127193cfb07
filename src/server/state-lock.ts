import { readFileSync, readlinkSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { StateFileError } from '../errors.js';

/**
 * One writer per state file: `FILE.lock` beside it names the process that holds it. The lock is a symbolic link whose
 * target is the pid (created atomically, and it needs no data block, so a full disk does not stop a start); where
 * links cannot be made (Windows without the privilege) it is a file created exclusively, holding the pid.
 */
export interface StateLock {
  /** The lock file's path. */
  readonly path: string;
  /** Removes the lock, if this process still holds it. */
  release(): void;
}

/** Takes the lock of `statePath`; a lock left by a process that no longer runs is taken over. */
export function lockStateFile(statePath: string): StateLock {
  const path = `${statePath}.lock`;
  const mine = String(process.pid);
  for (let attempt = 0; ; attempt++) {
    try {
      create(path, mine);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new StateFileError(`Cannot lock the state file ${statePath}: ${(error as Error).message}`);
      }
    }
    const holder = holderOf(path);
    if (attempt === 0 && (holder === undefined || !isRunning(holder))) {
      removeQuietly(path); // a stale lock: its process is gone (killed, crashed)
      continue;
    }
    throw new StateFileError(
      `The state file ${statePath} is in use by another sandbox (pid ${holder === undefined ? 'unknown' : String(holder)}): two writers would overwrite each other's work. Stop that one, or pass another --state file. If that process is not a sandbox, remove ${path}.`,
    );
  }
  return {
    path,
    release: () => {
      if (holderOf(path) === process.pid) removeQuietly(path);
    },
  };
}

function create(path: string, pid: string): void {
  try {
    symlinkSync(pid, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOSYS' && code !== 'EINVAL') throw error;
    writeFileSync(path, pid, { flag: 'wx', mode: 0o600 });
  }
}

/** The pid a lock names; undefined when it names none (a lock file being written, or one damaged). */
function holderOf(path: string): number | undefined {
  let text: string;
  try {
    text = readlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  }
  return /^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined;
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

/** True when a process with this pid runs (one of another user's counts: EPERM). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
