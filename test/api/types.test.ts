/**
 * The public types (docs/reference/library-api.md, "Types and casing"): checked by the compiler (`npm test` runs `tsc --noEmit` first); a wrong type here
 * fails the build, not the run. Response types come from the schemas the OpenAPI document is generated from.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  createSandbox,
  SCENARIO_NAMES,
  type Agent,
  type AccountView,
  type AgentPage,
  type ErrorBody,
  type ErrorCode,
  type FixtureSet,
  type FixtureSetName,
  type SandboxError,
  type SandboxErrorCode,
  type SandboxOptions,
  type ScenarioName,
  type StateSnapshot,
  type Task,
  type Usage,
} from '../../src/index.js';
import { SCENARIOS } from '../../src/scenarios/catalog.js';

type Sandbox = ReturnType<typeof createSandbox>;

describe('public types', () => {
  it('ScenarioName is the union of the catalogue, and scenario parameters take only it', () => {
    expectTypeOf<ScenarioName>().toEqualTypeOf<(typeof SCENARIOS)[number]['name']>();
    expectTypeOf<'rate-limited'>().toExtend<ScenarioName>();
    expectTypeOf<'rate-limitted'>().not.toExtend<ScenarioName>();
    expectTypeOf<string>().not.toExtend<ScenarioName>();
    expectTypeOf<Sandbox['useScenario']>().parameter(0).toEqualTypeOf<ScenarioName>();
    expectTypeOf(SCENARIO_NAMES).toEqualTypeOf<readonly ScenarioName[]>();
    expect(SCENARIO_NAMES).toContain('rate-limited' satisfies ScenarioName);
  });

  it('no parameter of the public API is `unknown`: fixtures and restore() say what they take', () => {
    expectTypeOf<NonNullable<SandboxOptions['fixtures']>>().toEqualTypeOf<FixtureSetName | FixtureSet>();
    expectTypeOf<FixtureSetName>().toEqualTypeOf<'default' | 'marketplace' | 'empty'>();
    expectTypeOf<Sandbox['restore']>().parameter(0).toEqualTypeOf<StateSnapshot>();
    expectTypeOf<{ accounts: 1 }>().not.toExtend<NonNullable<SandboxOptions['fixtures']>>();
  });

  it('response types follow the wire (snake_case) and name their enums', () => {
    expectTypeOf<Agent['created_at']>().toEqualTypeOf<string>();
    expectTypeOf<Agent['model']>().toEqualTypeOf<'model-a' | 'model-b' | 'model-c'>();
    expectTypeOf<AgentPage['data']>().toEqualTypeOf<Agent[]>();
    expectTypeOf<AgentPage['next_cursor']>().toEqualTypeOf<string | null>();
    expectTypeOf<Task['status']>().toEqualTypeOf<'queued' | 'running' | 'completed' | 'failed'>();
    expectTypeOf<Task['usage']>().toEqualTypeOf<{ input_tokens: number; output_tokens: number; cost_usd: number }>();
    expectTypeOf<Usage['balance_usd']>().toEqualTypeOf<number>();
    expectTypeOf<Usage['plan']>().toEqualTypeOf<'free' | 'starter' | 'pro' | 'enterprise'>();
    expectTypeOf<ErrorBody>().toEqualTypeOf<{ error: { code: ErrorCode; message: string } }>();
  });

  it('casing: options and parameters camelCase; records (views, answers) snake_case as on the wire', () => {
    expectTypeOf<Parameters<Sandbox['accounts']['update']>[1]>().toHaveProperty('balanceUsd');
    expectTypeOf<SandboxOptions>().toHaveProperty('taskRetention');
    expectTypeOf<SandboxError['code']>().toEqualTypeOf<SandboxErrorCode>();
    expectTypeOf<ErrorCode>().toExtend<SandboxErrorCode>();
    expectTypeOf<AccountView>().toHaveProperty('balance_usd');
    const sandbox = createSandbox({ clock: 'manual', fixtures: 'empty' });
    expect(Object.keys(sandbox.accounts.list()[0]!)).toContain('balance_usd');
  });
});
