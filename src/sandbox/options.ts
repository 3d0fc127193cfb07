/** createSandbox's options, checked and with their defaults, before anything is built from them. */
import type { Faker } from '@faker-js/faker';
import { SandboxError } from '../errors.js';
import type { ClockMode } from '../model/clock.js';
import { createFaker, DEFAULT_SEED, generateDefaultFixtures } from '../model/default-fixtures.js';
import { FixtureError, parseFixtureSet, type FixtureSet } from '../model/fixture-schema.js';
import { bundledFixtureSet } from '../model/fixture-sets.js';
import { DEFAULT_TASK_TIMINGS, type TaskTimings } from '../rules/task-progress.js';
import type { ScenarioScope } from '../scenarios/active.js';
import { findScenario, SCENARIO_NAMES } from '../scenarios/catalog.js';
import type { SandboxOptions } from '../sandbox-types.js';

const DEFAULT_TASK_RETENTION = 10_000;

export interface CoreSettings {
  seed: number;
  faker: Faker;
  fixtures: FixtureSet;
  basePath: string;
  clockMode: ClockMode;
  /** The clock's start (option `now`), in ms; undefined: the real time. */
  start: number | undefined;
  timings: TaskTimings;
  taskRetention: number;
  /** The scenarios of fixture accounts and keys (magic keys), checked: applied at start and on reset. */
  fixtureScenarios: { name: string; scope: ScenarioScope }[];
}

/** The settings of `options`, which `checkSandboxOptions` (option-schemas.ts) has checked. */
export function coreSettings(options: SandboxOptions): CoreSettings {
  const seed = options.seed ?? DEFAULT_SEED;
  // Made on first use (nothing draws from it at present); the default fixtures of DEFAULT_SEED are prebuilt.
  const faker = createFaker();
  const fixtures =
    options.fixtures === undefined
      ? generateDefaultFixtures(seed)
      : typeof options.fixtures === 'string'
        ? bundledFixtureSet(options.fixtures, seed)
        : parseFixtureSet(options.fixtures, 'given to createSandbox');
  return {
    seed,
    faker,
    fixtures,
    basePath: options.baseUrl ? new URL(options.baseUrl).pathname.replace(/\/+$/, '') : '/api/v1',
    clockMode: options.clock ?? 'real',
    start: options.now === undefined ? undefined : new Date(options.now).getTime(),
    timings: taskTimings(options.taskTimings),
    taskRetention: options.taskRetention ?? DEFAULT_TASK_RETENTION,
    fixtureScenarios: fixtureScenarios(fixtures),
  };
}

/** The task timings: the defaults with the given ones over them; the running range must not be upside down. */
function taskTimings(given: Partial<TaskTimings> = {}): TaskTimings {
  const timings = { ...DEFAULT_TASK_TIMINGS };
  if (given.queuedMs !== undefined) timings.queuedMs = given.queuedMs;
  if (given.runningMinMs !== undefined) timings.runningMinMs = given.runningMinMs;
  if (given.runningMaxMs !== undefined) timings.runningMaxMs = given.runningMaxMs;
  if (timings.runningMinMs > timings.runningMaxMs) {
    throw new SandboxError(
      `taskTimings: runningMinMs (${String(timings.runningMinMs)}) must not be above runningMaxMs (${String(timings.runningMaxMs)}).`,
    );
  }
  return timings;
}

function fixtureScenarios(fixtures: FixtureSet): { name: string; scope: ScenarioScope }[] {
  const found: { name: string; scope: ScenarioScope }[] = [];
  const collect = (value: string | string[] | undefined, where: string, scope: ScenarioScope) => {
    for (const name of value === undefined ? [] : typeof value === 'string' ? [value] : value) {
      if (!findScenario(name))
        throw new FixtureError(
          `Invalid fixture set:\n  at ${where}.scenario: unknown scenario "${name}" (known: ${SCENARIO_NAMES.join(', ')})`,
        );
      found.push({ name, scope });
    }
  };
  fixtures.accounts.forEach((a, i) => collect(a.scenario, `accounts[${String(i)}]`, { accountId: a.id }));
  fixtures.keys.forEach((k, i) => collect(k.scenario, `keys[${String(i)}]`, { keyId: k.id }));
  return found;
}
