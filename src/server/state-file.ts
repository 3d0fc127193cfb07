import { StateFileError } from '../errors.js';
import { readFileSync, renameSync, statSync, writeFileSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StateSnapshot } from '../model/state.js';

export { StateFileError };

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
    throw new StateFileError(`The state file ${path} is not valid JSON. It was left untouched; move it away or pass another --state file.`);
  }
}

/** Writes a snapshot atomically: a temporary file beside the target, then a rename, so a crash never leaves half a file. */
export function saveStateFile(path: string, snapshot: StateSnapshot): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, `${JSON.stringify(snapshot)}\n`);
    renameSync(tmp, path);
  } catch (error) {
    try {
      unlinkSync(tmp);
    } catch {
      // nothing to clean up
    }
    throw new StateFileError(`Cannot write the state file ${path}: ${(error as Error).message}. The previous file, if any, is intact.`);
  }
}

/**
 * Checks at start that the state file can be written later: its directory takes a new file, and the path is not a
 * directory. Writes and removes a probe file beside it; the state file itself is not touched.
 */
export function assertStateWritable(path: string): void {
  let isDirectory = false;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (isDirectory) throw new StateFileError(`Cannot use ${path} as the state file: it is a directory.`);
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
    writeFileSync(path, `${JSON.stringify(snapshot)}\n`);
    return path;
  } catch {
    return undefined;
  }
}
