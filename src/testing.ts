/**
 * `agent-work-sandbox/testing` (also at its first name, `agent-work-sandbox/vitest`): one call that gives a test file a sandbox served by msw's `setupServer`, with
 * listen / reset / close wired into the runner's hooks. Works with Vitest and Jest: the hooks come from the
 * runner's globals or are passed in; nothing here imports the runner.
 */
import * as msw from 'msw';
import type { RequestHandler } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { createSandbox, type Sandbox } from './index.js';
import type { SandboxOptions } from './sandbox-types.js';

type Hook = (fn: () => unknown) => unknown;

/** The runner's hook functions (`import { beforeAll, afterEach, afterAll } from 'vitest'`, or Jest's globals). */
export interface RunnerHooks {
  beforeAll: Hook;
  afterEach: Hook;
  afterAll: Hook;
}

type UnhandledRequest = NonNullable<Parameters<SetupServer['listen']>[0]>['onUnhandledRequest'];

export interface SetupSandboxOptions extends SandboxOptions {
  /** The runner's hooks. Default: the globals `beforeAll`, `afterEach`, `afterAll` (Jest; Vitest with `globals: true`). */
  hooks?: RunnerHooks;
  /**
   * What msw does with a request no handler serves. Default `'error'`: a test never reaches the network by mistake.
   * Passed as `onUnhandledRequest` to msw 2 and as `onUnhandledFrame` (its name since msw 3) to msw 3.
   */
  onUnhandledRequest?: UnhandledRequest;
  /** More msw handlers to serve beside the sandbox's (checked first). */
  handlers?: RequestHandler[];
}

/** What a test file gets: its sandbox and the msw server that serves it. */
export interface SandboxHarness {
  sandbox: Sandbox;
  server: SetupServer;
}

/**
 * Creates a sandbox and an msw server for it, and registers: `beforeAll` → `server.listen({ onUnhandledRequest })`,
 * `afterEach` → `server.resetHandlers()` and `sandbox.reset()` (state, clock, scenarios, journal), `afterAll` →
 * `server.close()`. Call it at the top of a test file.
 * @example
 * import { beforeAll, afterEach, afterAll } from 'vitest'
 * import { setupSandbox } from 'agent-work-sandbox/testing'
 * const { sandbox } = setupSandbox({ clock: 'manual', hooks: { beforeAll, afterEach, afterAll } })
 * @example
 * // Jest (hooks are globals)
 * const { setupSandbox } = require('agent-work-sandbox/testing')
 * const { sandbox, server } = setupSandbox({ clock: 'manual' })
 */
export function setupSandbox(options: SetupSandboxOptions = {}): SandboxHarness {
  const { hooks = globalHooks(), onUnhandledRequest = 'error', handlers = [], ...sandboxOptions } = options;
  const sandbox = createSandbox(sandboxOptions);
  const server = setupServer(...handlers, ...sandbox.handlers);
  hooks.beforeAll(() => server.listen(unhandledOption(onUnhandledRequest)));
  hooks.afterEach(() => {
    server.resetHandlers();
    sandbox.reset();
  });
  hooks.afterAll(() => server.close());
  return { sandbox, server };
}

/** msw 3 removed `handleRequest` (and renamed the option): its absence tells the installed major. */
export const MSW_MAJOR: 2 | 3 = 'handleRequest' in msw ? 2 : 3;

type ListenOptions = NonNullable<Parameters<SetupServer['listen']>[0]>;

/** The listen option for the installed msw: msw 3 ignores `onUnhandledRequest`, and an unmocked request would pass. */
export function unhandledOption(value: UnhandledRequest, major: 2 | 3 = MSW_MAJOR): ListenOptions {
  return (major === 3 ? { onUnhandledFrame: value } : { onUnhandledRequest: value }) as ListenOptions;
}

function globalHooks(): RunnerHooks {
  const g = globalThis as Partial<RunnerHooks>;
  if (typeof g.beforeAll !== 'function' || typeof g.afterEach !== 'function' || typeof g.afterAll !== 'function') {
    throw new Error(
      "[agent-work-sandbox] setupSandbox needs the test runner's hooks: pass { hooks: { beforeAll, afterEach, afterAll } } " +
        "(import them from 'vitest'), or enable the runner's globals (Jest has them; Vitest with `globals: true`).",
    );
  }
  return { beforeAll: g.beforeAll, afterEach: g.afterEach, afterAll: g.afterAll };
}
