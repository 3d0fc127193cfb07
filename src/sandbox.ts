import type { Faker } from '@faker-js/faker';
import type { RequestHandler } from 'msw';
import { createClock, type Clock, type ClockMode } from './model/clock.js';
import { createFaker, DEFAULT_SEED, generateDefaultFixtures } from './model/default-fixtures.js';
import { FixtureError, parseFixtureSet, type FixtureSet } from './model/fixture-schema.js';
import { bundledFixtureSet } from './model/fixture-sets.js';
import { usdToNano } from './model/money.js';
import { isPlanId, PLANS, type PlanId } from './model/plans.js';
import { seededId, seededKey } from './model/random.js';
import { isScope, type Scope } from './model/scopes.js';
import { addKey, fromSnapshot, newAccount, stateFromFixtures, toSnapshot, type State, type StateSnapshot } from './model/state.js';
import { periodBounds } from './rules/period.js';
import { dropBeyondRetention, finish } from './rules/tasks.js';
import { createSettleLoop } from './rules/settle-loop.js';
import { DEFAULT_TASK_TIMINGS, type TaskTimings } from './rules/task-progress.js';
import type { Engine } from './core/engine.js';
import { handle, settle } from './core/handle.js';
import { overview, type Overview, type OverviewOptions } from './core/overview.js';
import { Journal, DEFAULT_JOURNAL_SIZE, matchesFilter, maskKeys, type JournalEntry, type RequestFilter } from './core/journal.js';
import type { PlainRequest, PlainResponse } from './core/types.js';
import { accountView, taskView } from './core/views.js';
import { ActiveScenarios, type ScenarioScope } from './scenarios/active.js';
import { findScenario, SCENARIO_NAMES, type ScenarioOptions } from './scenarios/catalog.js';
import { SandboxError } from './errors.js';
import type { TaskError } from './model/types.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';
import type { SandboxWebhooks, WebhookOptions } from './webhooks/types.js';

/** A scenario to start with: a name, or a name with options and a scope. */
export type ScenarioSpec = string | ({ name: string; options?: ScenarioOptions } & ScenarioScope);

/** The fixture sets bundled with the library. */
export type FixtureSetName = 'default' | 'marketplace' | 'empty';

export interface SandboxOptions {
  /** Drives every random choice (catalog, keys, ids, tokens, timings). Default 1. */
  seed?: number;
  /**
   * A bundled set by name (`'default'` generated from the seed, `'marketplace'`, `'empty'`) or a fixture set object
   * (validated). Default: `'default'`.
   */
  fixtures?: FixtureSetName | FixtureSet | unknown;
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

export const DEFAULT_TASK_RETENTION = 10_000;

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
  close(): Promise<void>;
}

/** One sandbox without its msw door: state, clock, scenarios, the request core. The CLI runs on this. */
export interface SandboxCore {
  /** The transport-neutral core: a plain request in, a plain response out. */
  handle(req: PlainRequest): PlainResponse;
  /** Back to the initial state: fixtures, clock, rate buckets, scenarios, journal. */
  reset(): void;
  /** Applies a scenario (to the whole sandbox, an account or a key); returns a function that undoes it. */
  useScenario(name: string, options?: ScenarioOptions & ScenarioScope): () => void;
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
    update(id: string, patch: { plan?: PlanId; balanceUsd?: number; limits?: { rpm?: number | null; tpm?: number | null } }): AccountView;
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
  /** One read of everything the inspector page shows (newest tasks and requests first). */
  overview(options?: OverviewOptions): Overview;
  snapshot(): StateSnapshot;
  restore(snapshot: StateSnapshot | unknown): void;
  /** Starts the HTTP server of the CLI on this sandbox (Node only). */
  listen(options?: ListenOptions): Promise<RunningServer>;
  /** Signed task events (Standard Webhooks 1.0) for Pro and Enterprise accounts: endpoints, deliveries, replay. */
  readonly webhooks: SandboxWebhooks;
  readonly seed: number;
  readonly baseUrl: string | undefined;
  readonly basePath: string;
}

const DEFAULT_ACCOUNT = 'acc_demo';

/** Creates a sandbox without msw handlers (see `createSandbox` in `index.ts` for the one with them). */
export function createSandboxCore(options: SandboxOptions = {}): SandboxCore {
  const seed = options.seed ?? DEFAULT_SEED;
  if (!Number.isSafeInteger(seed)) throw new SandboxError(`seed must be an integer, got ${JSON.stringify(options.seed)}.`);
  const faker: Faker = createFaker();
  const fixtures = options.fixtures === undefined
    ? generateDefaultFixtures(seed, faker)
    : typeof options.fixtures === 'string'
      ? bundledFixtureSet(options.fixtures, seed, faker)
      : parseFixtureSet(options.fixtures, 'given to createSandbox');
  const basePath = options.baseUrl ? new URL(options.baseUrl).pathname.replace(/\/+$/, '') : '/api/v1';
  const clockMode = options.clock ?? 'real';
  const start = options.now === undefined ? undefined : new Date(options.now).getTime();

  let engine: Engine;
  let webhooks: WebhookDispatcher | undefined;
  const clock = createClock(clockMode, start, () => {
    settle(engine);
    webhooks?.clockMoved();
  });
  const initialNow = clock.now();
  const initial = toSnapshot(stateFromFixtures(fixtures, initialNow, periodBounds(initialNow)), seed, initialNow);
  const timings: TaskTimings = { ...DEFAULT_TASK_TIMINGS, ...options.taskTimings };
  const taskRetention = options.taskRetention ?? DEFAULT_TASK_RETENTION;
  if (!(taskRetention === Infinity || (Number.isSafeInteger(taskRetention) && taskRetention >= 0))) {
    throw new SandboxError(`taskRetention must be an integer ≥ 0 or Infinity, got ${JSON.stringify(options.taskRetention)}.`);
  }

  engine = {
    state: fromSnapshot(initial),
    seed,
    faker,
    timings,
    taskRetention,
    clock,
    journal: new Journal(options.journalSize ?? DEFAULT_JOURNAL_SIZE),
    scenarios: new ActiveScenarios(),
    basePath,
    anonymousRpm: options.anonymousRpm ?? 60,
    pageCache: { version: -1, pages: new Map() },
    requestSeq: 0,
  };
  const hooks = new WebhookDispatcher(engine, () => settle(engine), options.webhooks);
  webhooks = hooks;
  // Real clock: due moves are settled off the request path, so no request pays for an idle spell (settle-loop.ts).
  const settleLoop = clockMode === 'real' ? createSettleLoop(() => engine, clock.now) : undefined;
  engine.onTaskEvent = (event) => {
    hooks.onTaskEvent(event);
    if (event.type === 'task.created') settleLoop?.arm();
  };

  // Fixture accounts and keys set up for a scenario (magic keys): checked once here, applied at start and on reset.
  const fixtureScenarios: { name: string; scope: ScenarioScope }[] = [];
  const collect = (value: string | string[] | undefined, where: string, scope: ScenarioScope) => {
    for (const name of value === undefined ? [] : typeof value === 'string' ? [value] : value) {
      if (!findScenario(name)) throw new FixtureError(`Invalid fixture set:\n  at ${where}.scenario: unknown scenario "${name}" (known: ${SCENARIO_NAMES.join(', ')})`);
      fixtureScenarios.push({ name, scope });
    }
  };
  fixtures.accounts.forEach((a, i) => collect(a.scenario, `accounts[${i}]`, { accountId: a.id }));
  fixtures.keys.forEach((k, i) => collect(k.scenario, `keys[${i}]`, { keyId: k.id }));

  const applyInitialScenarios = () => {
    for (const s of fixtureScenarios) engine.scenarios.add(s.name, {}, s.scope);
    for (const spec of options.scenarios ?? []) {
      if (typeof spec === 'string') engine.scenarios.add(spec);
      else engine.scenarios.add(spec.name, spec.options, { accountId: spec.accountId, keyId: spec.keyId });
    }
  };
  applyInitialScenarios();

  const state = (): State => engine.state;
  const account = (id: string) => {
    const a = state().accounts.get(id);
    if (!a) throw new SandboxError(`No account '${id}'.`, 'not_found');
    return a;
  };
  const task = (id: string) => {
    settle(engine);
    const t = state().tasks.get(id);
    if (!t) throw new SandboxError(`No task '${id}'.`, 'not_found');
    return t;
  };
  const keyView = (k: { id: string; key: string; accountId: string; scopes: Scope[] }): CreatedKey => ({ id: k.id, key: k.key, accountId: k.accountId, scopes: [...k.scopes] });

  const createKey = (input: { accountId?: string; scopes: Scope[]; label?: string }): CreatedKey => {
    const accountId = input.accountId ?? (state().accounts.has(DEFAULT_ACCOUNT) ? DEFAULT_ACCOUNT : state().accounts.keys().next().value!);
    const owner = account(accountId);
    if (!Array.isArray(input.scopes) || input.scopes.length === 0 || !input.scopes.every(isScope)) {
      throw new SandboxError(`scopes must be a non-empty list of: read:agents, write:agents, read:tasks, write:tasks, read:usage, read:analytics, admin.`);
    }
    if (input.label !== undefined && typeof input.label !== 'string') throw new SandboxError(`label must be a string; got ${JSON.stringify(input.label)}.`);
    const plan = PLANS[owner.plan];
    const live = [...state().keysById.values()].filter((k) => k.accountId === owner.id && !k.revoked).length;
    if (plan.maxKeys !== null && live >= plan.maxKeys) {
      throw new SandboxError(`The ${plan.name} plan allows ${plan.maxKeys} API key${plan.maxKeys === 1 ? '' : 's'} per account; account '${owner.id}' has ${live}. Revoke one or change the plan.`);
    }
    const n = ++state().counters.key;
    const created = { id: seededId('key', seed, `minted-key-id:${n}`), key: seededKey(seed, `minted-key:${n}`), accountId: owner.id, scopes: [...new Set(input.scopes)], revoked: false, label: input.label ?? input.scopes.join(' '), createdAt: clock.now() };
    addKey(state(), created);
    return keyView(created);
  };

  const sandbox: SandboxCore = {
    handle: (req) => handle(engine, req),
    reset() {
      engine.state = fromSnapshot(initial);
      clock.set(clockMode === 'manual' ? (start ?? initialNow) : (start ?? Date.now()));
      engine.seed = seed;
      engine.journal.clear();
      engine.scenarios.clear();
      engine.requestSeq = 0;
      applyInitialScenarios();
      hooks.reset();
    },
    useScenario(name, opts = {}) {
      const { accountId, keyId, ...scenarioOptions } = opts;
      if (accountId !== undefined) account(accountId);
      if (keyId !== undefined && !state().keysById.has(keyId)) throw new SandboxError(`No key '${keyId}'.`, 'not_found');
      return engine.scenarios.add(name, scenarioOptions, { accountId, keyId });
    },
    clearScenarios(scope) {
      engine.scenarios.clear(scope);
    },
    keys: {
      create: createKey,
      revoke(idOrKey) {
        const k = state().keysById.get(idOrKey) ?? state().keys.get(idOrKey);
        if (!k) throw new SandboxError(`No key '${maskKeys(idOrKey)}'.`, 'not_found');
        k.revoked = true;
      },
      list(accountId) {
        const active = engine.scenarios.all();
        return [...state().keysById.values()]
          .filter((k) => accountId === undefined || k.accountId === accountId)
          .map((k) => ({ ...keyView(k), revoked: k.revoked, label: k.label, scenarios: active.filter((s) => s.scope.keyId === k.id).map((s) => s.name) }));
      },
    },
    accounts: {
      list: () => (settle(engine), [...state().accounts.values()].map(accountView)),
      get: (id) => {
        settle(engine);
        const a = state().accounts.get(id);
        return a ? accountView(a) : undefined;
      },
      update(id, patch) {
        settle(engine);
        const a = account(id);
        if (patch.plan !== undefined && !isPlanId(patch.plan)) throw new SandboxError(`plan must be one of free, starter, pro, enterprise; got ${JSON.stringify(patch.plan)}.`);
        if (patch.balanceUsd !== undefined && !(typeof patch.balanceUsd === 'number' && Number.isFinite(patch.balanceUsd) && patch.balanceUsd >= 0)) {
          throw new SandboxError(`balance_usd must be a number ≥ 0; got ${JSON.stringify(patch.balanceUsd)}.`);
        }
        for (const [name, value] of Object.entries(patch.limits ?? {})) {
          if (name !== 'rpm' && name !== 'tpm') throw new SandboxError(`limits may set rpm and tpm only; got '${name}'.`);
          if (value !== null && !(Number.isInteger(value) && (value as number) > 0)) throw new SandboxError(`limits.${name} must be a positive integer or null; got ${JSON.stringify(value)}.`);
        }
        if (patch.plan !== undefined) a.plan = patch.plan;
        const previousNano = a.balanceNano;
        if (patch.balanceUsd !== undefined) a.balanceNano = usdToNano(patch.balanceUsd);
        for (const [name, value] of Object.entries(patch.limits ?? {}) as ['rpm' | 'tpm', number | null][]) {
          if (value === null) delete a.limits[name];
          else a.limits[name] = value;
        }
        hooks.balanceSet(a.id, previousNano);
        return accountView(a);
      },
      create(input = {}) {
        const plan = input.plan ?? 'pro';
        if (!isPlanId(plan)) throw new SandboxError(`plan must be one of free, starter, pro, enterprise; got ${JSON.stringify(input.plan)}.`);
        if (input.balanceUsd !== undefined && !(Number.isFinite(input.balanceUsd) && input.balanceUsd >= 0)) throw new SandboxError(`balance_usd must be a number ≥ 0.`);
        if (input.name !== undefined && typeof input.name !== 'string') throw new SandboxError(`name must be a string; got ${JSON.stringify(input.name)}.`);
        const n = ++state().counters.account;
        const id = seededId('acc', seed, `account:${n}`);
        const now = clock.now();
        state().accounts.set(id, newAccount({ id, name: input.name ?? `Account ${n}`, plan, balanceNano: input.balanceUsd === undefined ? undefined : usdToNano(input.balanceUsd) }, periodBounds(now), now));
        return { account: accountView(account(id)), key: createKey({ accountId: id, scopes: ['admin'], label: 'admin' }) };
      },
    },
    clock,
    tasks: {
      get: (id) => {
        settle(engine);
        const t = state().tasks.get(id);
        return t ? taskView(t) : undefined;
      },
      list: (accountId) => (settle(engine), [...state().tasks.values()].filter((t) => accountId === undefined || t.accountId === accountId).map(taskView)),
      complete(id, result) {
        const t = task(id);
        if (t.status === 'completed' || t.status === 'failed') throw new SandboxError(`Task '${id}' has already ended (${t.status}).`);
        finish(engine, t, clock.now(), 'completed', { result });
        return taskView(t);
      },
      fail(id, error) {
        const t = task(id);
        if (t.status === 'completed' || t.status === 'failed') throw new SandboxError(`Task '${id}' has already ended (${t.status}).`);
        if (error !== undefined && !(error && typeof error.code === 'string' && typeof error.message === 'string')) {
          throw new SandboxError('error must be { code: string, message: string }.');
        }
        finish(engine, t, clock.now(), 'failed', { error });
        return taskView(t);
      },
    },
    get requests() {
      return engine.journal.list();
    },
    findRequests(filter = {}) {
      return engine.journal.list().filter((e) => matchesFilter(e, filter, basePath));
    },
    clearRequests() {
      engine.journal.clear();
    },
    overview(overviewOptions) {
      settle(engine);
      return overview(engine, overviewOptions);
    },
    snapshot() {
      settle(engine);
      return toSnapshot(engine.state, engine.seed, clock.now());
    },
    restore(snapshot) {
      const next = fromSnapshot(snapshot);
      const snap = snapshot as StateSnapshot;
      engine.state = next;
      dropBeyondRetention(engine);
      if (Number.isSafeInteger(snap.seed)) engine.seed = snap.seed;
      if (clockMode === 'manual' && Number.isFinite(snap.now)) clock.set(snap.now);
      else settle(engine);
      settleLoop?.arm();
    },
    async listen(listenOptions = {}) {
      const { listen } = await import('./server/listen.js');
      return listen(sandbox, { handlers: options.handlers, ...listenOptions });
    },
    webhooks: hooks,
    seed,
    baseUrl: options.baseUrl,
    basePath,
  };
  return sandbox;
}
