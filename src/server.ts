/**
 * agent-work-sandbox/server: everything that needs Node — the HTTP server (`listen`), the control API as an express
 * router, state files. The package's `exports` send bundlers targeting the browser nowhere for this entry, so a
 * browser build never pulls `node:` modules; `sandbox.listen()` loads this entry on demand.
 */
export { listen, DEFAULT_HOST, type SandboxServer } from './server/listen.js';
export { createControlRouter } from './server/control.js';
export { loadStateFile, saveStateFile, assertStateWritable, StateFileError } from './server/state-file.js';
export type { ListenOptions, RunningServer } from './sandbox-types.js';
