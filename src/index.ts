/**
 * agent-work-sandbox: a local sandbox of the Agent Work Service API.
 * Runtime-neutral: nothing here imports from `node:`; `sandbox.listen()` loads the Node server on demand.
 */
import type { RequestHandler } from 'msw';
import { createHandlers } from './http/handlers.js';
import { createSandbox as createFetchSandbox, type FetchSandbox } from './fetch.js';
import type { SandboxOptions } from './sandbox-types.js';

/** A sandbox with its msw door: the sandbox of `agent-work-sandbox/fetch`, plus msw's handlers. */
export interface Sandbox extends FetchSandbox {
  /** MSW request handlers serving the API (for `setupServer` / `setupWorker`). Same answers as `fetch`. */
  readonly handlers: RequestHandler[];
}

/**
 * Creates a sandbox of the Agent Work Service API: its own state, clock, scenarios and msw handlers.
 * @example
 * const sandbox = createSandbox({ clock: 'manual' })
 * const server = setupServer(...sandbox.handlers)
 * server.listen({ onUnhandledRequest: 'error' })
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const sandbox = createFetchSandbox(options);
  return Object.assign(sandbox, {
    handlers: createHandlers((req) => sandbox.handle(req), options.baseUrl, options.handlers),
  });
}

export type { FetchSandbox };
export * from './public.js';
