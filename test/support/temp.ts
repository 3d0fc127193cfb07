/**
 * Temporary directories for a test file, removed when the file's tests are done: a test run leaves nothing in the
 * system's temporary directory. Import it at the top of a test file (its `afterAll` belongs to that file).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];

afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new empty directory under the system's temporary directory (`<tmp>/<prefix>XXXXXX`). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
