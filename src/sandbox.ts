import type { Faker } from '@faker-js/faker';
import { createClock } from './model/clock.js';
import { createFaker, DEFAULT_SEED, generateDefaultFixtures } from './model/default-fixtures.js';
import { FixtureError, parseFixtureSet } from './model/fixture-schema.js';
import { bundledFixtureSet } from './model/fixture-sets.js';
import { usdToNano } from './model/money.js';
import { PLANS } from './model/plans.js';
import { seededId, seededKey } from './model/random.js';
import type { Scope } from './model/scopes.js';
import { addKey, fromSnapshot, newAccount, stateFromFixtures, toSnapshot, type State } from './model/state.js';
import { periodBounds } from './rules/period.js';
import { dropBeyondRetention, finish } from './rules/tasks.js';
import { createSettleLoop } from './rules/settle-loop.js';
import { DEFAULT_TASK_TIMINGS, type TaskTimings } from './rules/task-progress.js';
import type { Engine } from './core/engine.js';
import { handle, settle } from './core/handle.js';
import { overview } from './core/overview.js';
import { Journal, DEFAULT_JOURNAL_SIZE, matchesFilter, maskKeys } from './core/journal.js';
import { accountView, taskView } from './core/views.js';
import { ActiveScenarios, type ScenarioScope } from './scenarios/active.js';
import { findScenario, SCENARIO_NAMES } from './scenarios/catalog.js';
import { SandboxError } from './errors.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';
import type { CreatedKey, SandboxCore, SandboxOptions } from './sandbox-types.js';
import { loadServer } from './load-server.js';
import { accountCreateInput, accountPatchInput, keyCreateInput, parseInput } from './schemas.js';
import { Auditor } from './audit/auditor.js';

export type { SandboxCore, SandboxOptions, ScenarioSpec, CreatedKey, AccountView, TaskView, ListenOptions, RunningServer } from './sandbox-types.js';
export type { FixtureSetName } from './model/fixture-sets.js';

const DEFAULT_TASK_RETENTION = 10_000;

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

  const auditor = new Auditor(() => engine.state);
  engine = {
    state: fromSnapshot(initial),
    seed,
    faker,
    timings,
    taskRetention,
    clock,
    journal: new Journal(options.journalSize ?? DEFAULT_JOURNAL_SIZE),
    audit: auditor,
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
    parseInput(keyCreateInput, input, 'the key');
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
      auditor.clear();
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
        parseInput(accountPatchInput, patch, 'the account change');
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
        parseInput(accountCreateInput, input, 'the account');
        const plan = input.plan ?? 'pro';
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
    explain: (requestId) => engine.journal.get(requestId)?.trace,
    audit: (filter) => auditor.findings(filter),
    overview(overviewOptions) {
      settle(engine);
      return overview(engine, overviewOptions);
    },
    snapshot() {
      settle(engine);
      return { ...toSnapshot(engine.state, engine.seed, clock.now()), webhooks: hooks.save() };
    },
    restore(snapshot) {
      const next = fromSnapshot(snapshot);
      const snap = snapshot;
      engine.state = next;
      dropBeyondRetention(engine);
      if (Number.isSafeInteger(snap.seed)) engine.seed = snap.seed;
      if (clockMode === 'manual' && Number.isFinite(snap.now)) clock.set(snap.now);
      else settle(engine);
      if (snap.webhooks) hooks.load(snap.webhooks);
      settleLoop?.arm();
    },
    async listen(listenOptions = {}) {
      const { listen } = await loadServer();
      return listen(sandbox, { handlers: options.handlers, ...listenOptions });
    },
    webhooks: hooks,
    seed,
    baseUrl: options.baseUrl,
    basePath,
  };
  return sandbox;
}
