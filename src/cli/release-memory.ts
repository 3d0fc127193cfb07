import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * One full collection, after a state file is loaded: reading it (the file's text, the parsed records, their checked
 * copy) takes the heap to several times what the sandbox keeps, and V8 keeps the pages of that peak for as long as
 * nothing makes it collect in full (100,000 tasks: 275 MiB of RSS at the first answer, 190 MiB after this). The CLI
 * cannot pass V8 flags to itself; `gc` is exposed for this one call and hidden again.
 */
export function releaseLoadMemory(): void {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    setFlagsFromString('--no-expose-gc');
    gc();
  } catch {
    // A runtime without V8's flags (Bun, Deno): nothing to give back this way; the state is loaded all the same.
  }
}
