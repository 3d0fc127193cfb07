import { createClock, type ClockMode } from './model/clock.js';
import { fromSnapshot, stateFromFixtures, toSnapshot, type StateSnapshot } from './model/state.js';
import { periodBounds } from './rules/period.js';
import { dropBeyondRetention } from './rules/tasks.js';
import { createSettleLoop } from './rules/settle-loop.js';
import type { Engine } from './core/engine.js';
import { handle, settle } from './core/handle.js';
import { overview } from './core/overview.js';
import { Journal, DEFAULT_JOURNAL_SIZE, matchesFilter } from './core/journal.js';
import { ActiveScenarios } from './scenarios/active.js';
import { SandboxError } from './errors.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';
import type { SandboxCore, SandboxOptions } from './sandbox-types.js';
import { loadServer } from './load-server.js';
import { Auditor } from './audit/auditor.js';
import { coreSettings, type CoreSettings } from './sandbox/options.js';
import { checkListenOptions, checkSandboxOptions } from './sandbox/option-schemas.js';
import { accountsApi, keysApi, tasksApi } from './sandbox/records.js';

/** The engine of a new sandbox, its webhooks and (real clock) its settle loop; `initial` is the state `reset()` returns to. */
function createEngine(options: SandboxOptions, settings: CoreSettings) {
  const webhooks: { current?: WebhookDispatcher } = {};
  const clock = createClock(settings.clockMode, settings.start, () => {
    settle(built);
    webhooks.current?.clockMoved();
  });
  const initialNow = clock.now();
  const initial = toSnapshot(
    stateFromFixtures(settings.fixtures, initialNow, periodBounds(initialNow)),
    settings.seed,
    initialNow,
  );
  const auditor = new Auditor(() => built.state);
  const built: Engine = {
    state: fromSnapshot(initial, true),
    seed: settings.seed,
    faker: settings.faker,
    timings: settings.timings,
    taskRetention: settings.taskRetention,
    clock,
    journal: new Journal(options.journalSize ?? DEFAULT_JOURNAL_SIZE),
    audit: auditor,
    scenarios: new ActiveScenarios(),
    basePath: settings.basePath,
    anonymousRpm: options.anonymousRpm ?? 60,
    pageCache: { version: -1, pages: new Map() },
    requestSeq: 0,
  };
  const hooks = new WebhookDispatcher(built, () => settle(built), options.webhooks);
  webhooks.current = hooks;
  // Real clock: due moves are settled off the request path, so no request pays for an idle spell (settle-loop.ts).
  const settleLoop =
    settings.clockMode === 'real'
      ? createSettleLoop(
          () => built,
          () => clock.now(),
        )
      : undefined;
  built.quietMoves = () => hooks.quiet();
  built.onTaskEvent = (event) => {
    hooks.onTaskEvent(event);
    if (event.type === 'task.created') settleLoop?.arm();
  };
  return { engine: built, clock, initial, initialNow, auditor, hooks, settleLoop };
}

/** Creates a sandbox without msw handlers (see `createSandbox` in `index.ts` for the one with them). */
export function createSandboxCore(given: SandboxOptions = {}): SandboxCore {
  return createCheckedSandboxCore(checkSandboxOptions(given));
}

/**
 * Where a restored state's clock resumes: at its saved time, unless both clocks are real. A manual state on a real
 * clock must not jump to today and grant every monthly credit in between; between two real clocks, the time that
 * passed while stopped counts (undefined: the clock stays where it is).
 */
function resumedTime(mode: ClockMode, snapshot: StateSnapshot): number | undefined {
  return (mode === 'manual' || snapshot.clock === 'manual') && Number.isFinite(snapshot.now) ? snapshot.now : undefined;
}

/**
 * The same, for options already checked: the CLI checks its flags itself, so its start builds no option schema (zod
 * stays unloaded until something needs it, see test/cli/cli-start.test.ts).
 */
export function createCheckedSandboxCore(options: SandboxOptions): SandboxCore {
  const settings = coreSettings(options);
  const { seed, basePath, clockMode, start } = settings;
  const { engine, clock, initial, initialNow, auditor, hooks, settleLoop } = createEngine(options, settings);

  const applyInitialScenarios = () => {
    for (const s of settings.fixtureScenarios) engine.scenarios.add(s.name, {}, s.scope);
    for (const spec of options.scenarios ?? []) {
      if (typeof spec === 'string') engine.scenarios.add(spec);
      else engine.scenarios.add(spec.name, spec.options, { accountId: spec.accountId, keyId: spec.keyId });
    }
  };
  applyInitialScenarios();
  const keys = keysApi(engine, seed);

  const sandbox: SandboxCore = {
    handle: (req) => handle(engine, req),
    reset() {
      engine.state = fromSnapshot(initial, true);
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
      if (accountId !== undefined && !engine.state.accounts.has(accountId))
        throw new SandboxError(`No account '${accountId}'.`, 'not_found');
      if (keyId !== undefined && !engine.state.keysById.has(keyId))
        throw new SandboxError(`No key '${keyId}'.`, 'not_found');
      return engine.scenarios.add(name, scenarioOptions, { accountId, keyId });
    },
    clearScenarios: (scope) => engine.scenarios.clear(scope),
    keys,
    accounts: accountsApi(engine, seed, hooks, keys),
    clock,
    tasks: tasksApi(engine),
    get requests() {
      return engine.journal.list();
    },
    findRequests: (filter = {}) => engine.journal.list().filter((e) => matchesFilter(e, filter, basePath)),
    clearRequests: () => engine.journal.clear(),
    explain: (requestId) => engine.journal.get(requestId)?.trace,
    audit: (filter) => auditor.findings(filter),
    overview(overviewOptions) {
      settle(engine);
      return overview(engine, overviewOptions);
    },
    snapshot() {
      settle(engine);
      return { ...toSnapshot(engine.state, engine.seed, clock.now()), clock: clockMode, webhooks: hooks.save() };
    },
    restore(snapshot) {
      engine.state = fromSnapshot(snapshot);
      dropBeyondRetention(engine);
      if (Number.isSafeInteger(snapshot.seed)) engine.seed = snapshot.seed;
      const at = resumedTime(clockMode, snapshot);
      if (at === undefined) settle(engine);
      else clock.set(at);
      if (snapshot.webhooks) hooks.load(snapshot.webhooks);
      settleLoop?.arm();
    },
    async listen(listenOptions = {}) {
      const server = await loadServer();
      return server.listen(sandbox, { handlers: options.handlers, ...checkListenOptions(listenOptions) });
    },
    webhooks: hooks,
    // A restored state brings its own seed.
    get seed() {
      return engine.seed;
    },
    baseUrl: options.baseUrl,
    basePath,
  };
  return sandbox;
}
