import { StateFileError } from '../errors.js';
import { isRunning } from './state-lock.js';
import {
  closeSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
  unlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { open, rename, unlink } from 'node:fs/promises';
import type { StateSnapshot } from '../model/state.js';

export { StateFileError };

/** State and rescue files hold every key and webhook secret: readable and writable by their owner only. */
const OWNER_ONLY = 0o600;

/** Reads a state file; undefined when there is none yet. A file that is not a snapshot is an error (and is left alone). */
export function loadStateFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(`Cannot read the state file ${path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new StateFileError(
      `The state file ${path} is not valid JSON. It was left untouched; move it away or pass another --state file.`,
    );
  }
}

/**
 * Writes a snapshot atomically and durably: a temporary file beside the target, flushed to the disk (fsync), then
 * renamed over it, then the directory flushed, so that a crash or a power cut leaves the old file or the new one,
 * never half of one.
 */
export function saveStateFile(path: string, snapshot: StateSnapshot): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    const fd = openSync(tmp, 'w', OWNER_ONLY);
    try {
      writeFileSync(fd, `${JSON.stringify(snapshot)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
    syncDirectory(dirname(path));
  } catch (error) {
    try {
      unlinkSync(tmp);
    } catch {
      // nothing to clean up
    }
    throw new StateFileError(
      `Cannot write the state file ${path}: ${(error as Error).message}. The previous file, if any, is intact.`,
    );
  }
}

let saveCount = 0;

/**
 * The same as `saveStateFile`, off the event loop (the snapshot is serialised first, synchronously, so it is the
 * state of this moment): the server goes on answering while the disk flushes. Each call has its own temporary file.
 */
export async function saveStateFileAsync(path: string, snapshot: StateSnapshot): Promise<void> {
  const text = `${JSON.stringify(snapshot)}\n`;
  const tmp = `${path}.${process.pid}.${++saveCount}.tmp`;
  try {
    const file = await open(tmp, 'w', OWNER_ONLY);
    try {
      await file.writeFile(text);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(tmp, path);
    syncDirectory(dirname(path));
  } catch (error) {
    await unlink(tmp).catch(() => undefined);
    throw new StateFileError(
      `Cannot write the state file ${path}: ${(error as Error).message}. The previous file, if any, is intact.`,
    );
  }
}

/** The rename made durable: the directory's entry flushed too (not possible on every platform, e.g. Windows). */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // a platform that cannot open or flush a directory: the rename is as durable as the platform makes it
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Checks at start that the state file can be written later: its directory takes a new file, and the path is not a
 * directory. Writes and removes a probe file beside it; the state file itself is not touched.
 */
/** True when `path` names a directory; false when it is anything else or cannot be read. */
function isDirectoryPath(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function assertStateWritable(path: string): void {
  if (isDirectoryPath(path)) throw new StateFileError(`Cannot use ${path} as the state file: it is a directory.`);
  const probe = `${path}.${process.pid}.probe`;
  try {
    writeFileSync(probe, '');
    unlinkSync(probe);
  } catch (error) {
    throw new StateFileError(`Cannot write the state file ${path}: ${(error as Error).message}`);
  }
}

/** Last resort when the state file cannot be written at exit: the snapshot into the temporary directory. */
export function saveRescueFile(snapshot: StateSnapshot): string | undefined {
  const path = join(tmpdir(), `agent-work-sandbox-state-${process.pid}-${Date.now()}.json`);
  try {
    writeFileSync(path, `${JSON.stringify(snapshot)}\n`, { mode: OWNER_ONLY });
    return path;
  } catch {
    return undefined;
  }
}

/**
 * Removes the temporary files a killed process left beside the state file (`FILE.<pid>[.<n>].tmp`, the pid no longer
 * running): a save cut short by kill -9 leaves one; the state file itself is whole either way.
 */
export function removeStaleTempFiles(path: string): void {
  const dir = dirname(path);
  const pattern = new RegExp(`^${basename(path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\d+)(?:\\.\\d+)?\\.tmp$`);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = pattern.exec(name)?.[1];
    if (pid === undefined || Number(pid) === process.pid || isRunning(Number(pid))) continue;
    try {
      unlinkSync(join(dir, name));
    } catch {
      // another process got there first
    }
  }
}
