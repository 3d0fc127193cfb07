/**
 * The public shapes of a sandbox: its options, its methods, what `listen()` takes and gives. A leaf: every layer may
 * import these types (the server and the CLI do), and this module imports only types, so no import cycle goes
 * through `sandbox.ts`.
 */
import type { RequestHandler } from 'msw';
import type { Clock, ClockMode } from './model/clock.js';
import type { FixtureSet } from './model/fixture-schema.js';
import type { FixtureSetName } from './model/fixture-sets.js';
import type { PlanId } from './model/plans.js';
import type { Scope } from './model/scopes.js';
import type { StateSnapshot } from './model/state.js';
import type { TaskError } from './model/types.js';
import type { TaskTimings } from './rules/task-progress.js';
import type { Overview, OverviewOptions } from './core/overview.js';
import type { JournalEntry, RequestFilter } from './core/journal.js';
import type { PlainRequest, PlainResponse } from './core/types.js';
import type { accountView, taskView } from './core/views.js';
import type { ScenarioScope } from './scenarios/active.js';
import type { ScenarioName, ScenarioOptions } from './scenarios/catalog.js';
import type { SandboxWebhooks, WebhookOptions } from './webhooks/types.js';
import type { AuditFinding } from './audit/auditor.js';
/** A scenario to start with: a name, or a name with options and a scope. */
export type ScenarioSpec = ScenarioName | ({ name: ScenarioName; options?: ScenarioOptions } & ScenarioScope);

export interface SandboxOptions {
  /** Drives every random choice (catalog, keys, ids, tokens, timings). Default 1. */
  seed?: number;
  /**
   * A bundled set by name (`'default'` generated from the seed, `'marketplace'`, `'empty'`) or a fixture set object
   * (validated). Default: `'default'`.
   */
  fixtures?: FixtureSetName | FixtureSet;
  /** The API's {base_url}, e.g. `https://api.example.com/api/v1`. Default: any origin + `/api/v1`. */
  baseUrl?: string;
  /** `real` (default) or `manual`: a manual clock moves only by `clock.advance` / `clock.set`. */
  clock?: ClockMode;
  /** Start time of the clock (manual default: 2026-01-01T00:00:00Z). */
  now?: Date | string | number;
  /** Scenarios in force from the start (and again after `reset()`). */
  scenarios?: ScenarioSpec[];
  /** How many handled requests the journal keeps. Default 1000. */
  journalSize?: number;
  /** Requests per minute per client without a valid key. Default 60. */
  anonymousRpm?: number;
  /** Task timings (queued, running range), in ms. */
  taskTimings?: Partial<TaskTimings>;
  /**
   * Your own msw handlers, for endpoints the API document does not show yet: a request under the base path that no
   * route of the API matches goes to them after the key and rate checks, and their answers get the rate-limit headers
   * and keep the error shape. Used by `sandbox.handlers` and by `listen()`.
   */
  handlers?: RequestHandler[];
  /** Webhooks: low-balance threshold, retries, endpoints registered from the start. */
  webhooks?: WebhookOptions;
  /**
   * How many finished (completed or failed) tasks are kept. Beyond it the tasks that finished first are dropped and
   * read 404, so a long-running sandbox does not grow without end. Default 10,000; `Infinity` keeps all.
   */
  taskRetention?: number;
}

export interface CreatedKey {
  id: string;
  key: string;
  accountId: string;
  scopes: Scope[];
}

export type AccountView = ReturnType<typeof accountView>;
export type TaskView = ReturnType<typeof taskView>;

export interface ListenOptions {
  /** Your own msw handlers (default: the sandbox's `handlers` option). */
  handlers?: RequestHandler[];
  port?: number;
  host?: string;
  /** Required on the control API when set (always required when host is not a loopback address). */
  controlToken?: string;
  /** Time a client has to send the request headers, ms (default 10,000): slow clients are cut off. */
  headersTimeoutMs?: number;
  /** Time a client has to send the whole request, ms (default 30,000). */
  requestTimeoutMs?: number;
}

export interface RunningServer {
  url: string;
  port: number;
  /** Stops the server (a plain function: it may be passed around unbound). */
  close: () => Promise<void>;
}

/** One sandbox without its msw door: state, clock, scenarios, the request core. The CLI runs on this. */
export interface SandboxCore {
  /** The transport-neutral core: a plain request in, a plain response out. */
  handle(req: PlainRequest): PlainResponse;
  /** Back to the initial state: fixtures, clock, rate buckets, scenarios, journal. */
  reset(): void;
  /** Applies a scenario (to the whole sandbox, an account or a key); returns a function that undoes it. */
  useScenario(name: ScenarioName, options?: ScenarioOptions & ScenarioScope): () => void;
  /** Removes every scenario in force (or those of one scope). */
  clearScenarios(scope?: ScenarioScope): void;
  readonly keys: {
    create(input: { accountId?: string; scopes: Scope[]; label?: string }): CreatedKey;
    revoke(idOrKey: string): void;
    /** Every key (of one account), with the scenarios scoped to it (a magic key's scenario, `useScenario({ keyId })`). */
    list(accountId?: string): (CreatedKey & { revoked: boolean; label: string; scenarios: string[] })[];
  };
  readonly accounts: {
    list(): AccountView[];
    get(id: string): AccountView | undefined;
    update(
      id: string,
      patch: { plan?: PlanId; balanceUsd?: number; limits?: { rpm?: number | null; tpm?: number | null } },
    ): AccountView;
    create(input?: { plan?: PlanId; balanceUsd?: number; name?: string }): { account: AccountView; key: CreatedKey };
  };
  readonly clock: Clock;
  readonly tasks: {
    get(id: string): TaskView | undefined;
    list(accountId?: string): TaskView[];
    complete(id: string, result?: unknown): TaskView;
    fail(id: string, error?: TaskError): TaskView;
  };
  /** The journal of handled requests (bounded), newest last. */
  readonly requests: JournalEntry[];
  /**
   * The journal entries that match every given field, newest last.
   * @example sandbox.findRequests({ method: 'POST', path: '/ext/tasks', status: 402 })
   */
  findRequests(filter?: RequestFilter): JournalEntry[];
  /** Empties the journal. */
  clearRequests(): void;
  /**
   * The decision trace of a request still in the journal, by its id (`req_…`, the `id` of a journal entry): the steps
   * that decided its answer, in order. Undefined when the journal no longer holds it.
   */
  explain(requestId: string): JournalEntry['trace'] | undefined;
  /**
   * The integration audit: client behaviour that will hurt in production (see docs/guides/explain-and-audit.md), errors first.
   * @example expect(sandbox.audit().filter((f) => f.severity === 'error')).toEqual([])
   */
  audit(filter?: { accountId?: string }): AuditFinding[];
  /** One read of everything the inspector page shows (newest tasks and requests first). */
  overview(options?: OverviewOptions): Overview;
  snapshot(): StateSnapshot;
  /** Replaces the state with a snapshot; validated at run time (a SnapshotError names what is wrong). */
  restore(snapshot: StateSnapshot): void;
  /** Starts the HTTP server of the CLI on this sandbox (Node only). */
  listen(options?: ListenOptions): Promise<RunningServer>;
  /** Signed task events (Standard Webhooks 1.0) for Pro and Enterprise accounts: endpoints, deliveries, replay. */
  readonly webhooks: SandboxWebhooks;
  readonly seed: number;
  readonly baseUrl: string | undefined;
  readonly basePath: string;
}
