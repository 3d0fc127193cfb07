/**
 * agent-work-sandbox: a local sandbox of the Agent Work Service API.
 * Runtime-neutral: nothing here imports from `node:`; `sandbox.listen()` loads the Node server on demand.
 */
import type { RequestHandler } from 'msw';
import { createHandlers } from './http/handlers.js';
import { createFetch, type SandboxFetch } from './http/fetch-door.js';
import { createSandboxCore } from './sandbox.js';
import type { SandboxCore, SandboxOptions } from './sandbox-types.js';

/** A sandbox with its msw door. */
export interface Sandbox extends SandboxCore {
  /** MSW request handlers serving the API (for `setupServer` / `setupWorker`). */
  readonly handlers: RequestHandler[];
  /**
   * A standard `fetch` answering from the sandbox directly (no msw, no global patching): pass it to a client that
   * takes a custom fetch. Same answers as `handlers`; a URL outside the base URL rejects with a TypeError.
   */
  readonly fetch: SandboxFetch;
}

/**
 * Creates a sandbox of the Agent Work Service API: its own state, clock, scenarios and msw handlers.
 * @example
 * const sandbox = createSandbox({ clock: 'manual' })
 * const server = setupServer(...sandbox.handlers)
 * server.listen({ onUnhandledRequest: 'error' })
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const core = createSandboxCore(options);
  return Object.assign(core, {
    handlers: createHandlers((req) => core.handle(req), options.baseUrl, options.handlers),
    fetch: createFetch((req) => core.handle(req), options.baseUrl, options.handlers),
  });
}

export * from './public.js';
