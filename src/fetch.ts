/**
 * agent-work-sandbox/fetch: the sandbox without msw. The same sandbox as the main entry, answering through
 * `sandbox.fetch` and `sandbox.handle` only, for clients that take a custom fetch and tests that patch nothing. It never
 * loads msw (unless user `handlers` are given and one is asked), so a process that uses it reaches its first answer
 * sooner than with the main entry (the bench's cold case measures both).
 */
import { createFetch, type SandboxFetch } from './http/fetch-door.js';
import { createSandboxCore } from './sandbox.js';
import type { SandboxCore, SandboxOptions } from './sandbox-types.js';

/** A sandbox with `fetch` as its door (no msw handlers). */
export interface FetchSandbox extends SandboxCore {
  /**
   * A standard `fetch` answering from the sandbox directly: pass it to a client that takes a custom fetch. A URL
   * outside the base URL rejects with a TypeError.
   */
  readonly fetch: SandboxFetch;
}

/**
 * Creates a sandbox of the Agent Work Service API answering through `sandbox.fetch`, without loading msw.
 * @example
 * const sandbox = createSandbox({ clock: 'manual' })
 * const res = await sandbox.fetch('https://api.example.com/api/v1/ext/agents', { headers: { authorization } })
 */
export function createSandbox(options: SandboxOptions = {}): FetchSandbox {
  const core = createSandboxCore(options);
  return Object.assign(core, { fetch: createFetch((req) => core.handle(req), options.baseUrl, options.handlers) });
}

export * from './public.js';
