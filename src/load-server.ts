/**
 * Loads the Node server (the `agent-work-sandbox/server` entry, `src/server.ts`) when `sandbox.listen()` is called.
 * The specifier is a variable marked to be ignored, so bundlers (Vite, esbuild, webpack, Rollup) never follow it and
 * the main entry stays browser-safe; and this module imports nothing from the server, so no import cycle goes through
 * it. In `dist/` the entry is `server.js` beside the chunk that holds this code; in `src/` it is `server.ts`.
 */
import { SandboxError } from './errors.js';
import type { ListenOptions, RunningServer, SandboxCore } from './sandbox-types.js';

/** What `sandbox.listen()` needs from the server entry. */
interface ServerEntry {
  listen(sandbox: SandboxCore, options: ListenOptions): Promise<RunningServer>;
}

const SERVER_ENTRY = './server.js';

export async function loadServer(): Promise<ServerEntry> {
  // A bundler's `process` shim may have no `versions`.
  if (
    typeof process === 'undefined' ||
    typeof (process as { versions?: { node?: unknown } }).versions?.node !== 'string'
  ) {
    throw new SandboxError(
      'listen() starts an HTTP server and needs Node; in a browser use sandbox.handlers with setupWorker.',
    );
  }
  return (await import(/* @vite-ignore */ /* webpackIgnore: true */ SERVER_ENTRY)) as ServerEntry;
}
