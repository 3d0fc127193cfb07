import { readFileSync, renameSync, writeFileSync, unlinkSync } from 'node:fs';
import type { StateSnapshot } from '../model/state.js';

export class StateFileError extends Error {
  override name = 'StateFileError';
}

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
