/** Magic keys: fixture keys (and accounts) set up for a scenario; validated, applied at start and on reset. */
import { describe, expect, it } from 'vitest';
import { banner } from '../../src/cli/banner.js';
import { createSandbox } from '../../src/index.js';
import { FixtureError } from '../../src/model/fixture-schema.js';
import { generateDefaultFixtures, magicKey, MAGIC_ACCOUNT } from '../../src/model/default-fixtures.js';
import { API_SCENARIO_NAMES as SCENARIO_NAMES } from '../../src/scenarios/catalog.js';

const base = () => generateDefaultFixtures(1);

describe('magic keys', () => {
  it('the default fixtures have one admin key per scenario on the Enterprise account acc_magic, the same for every seed', () => {
    for (const seed of [1, 42]) {
      const keys = generateDefaultFixtures(seed).keys.filter((k) => k.account_id === MAGIC_ACCOUNT);
      expect(keys.map((k) => k.scenario)).toEqual(SCENARIO_NAMES);
      expect(keys.map((k) => k.key)).toEqual(SCENARIO_NAMES.map(magicKey));
      expect(keys.every((k) => k.scopes.join() === 'admin' && k.label === `magic:${String(k.scenario)}`)).toBe(true);
    }
    expect(base().accounts.find((a) => a.id === MAGIC_ACCOUNT)!.plan).toBe('enterprise');
    expect(magicKey('rate-limited')).toBe('ak_magic_rate_limited');
  });

  it('keys.list shows the scenarios of each key; reset() applies them again, and undoes the rest', () => {
    const sandbox = createSandbox();
    const keyId = 'key_demo_admin';
    sandbox.useScenario('latency', { keyId });
    expect(sandbox.keys.list('acc_demo').find((k) => k.id === keyId)!.scenarios).toEqual(['latency']);
    sandbox.clearScenarios();
    // Magic keys are part of the catalogue: a clear removes the scenarios put in force, not theirs.
    expect(sandbox.keys.list('acc_demo').find((k) => k.id === keyId)!.scenarios).toEqual([]);
    expect(sandbox.keys.list(MAGIC_ACCOUNT).map((k) => k.scenarios)).toEqual(SCENARIO_NAMES.map((n) => [n]));
    sandbox.reset();
    expect(sandbox.keys.list(MAGIC_ACCOUNT).map((k) => k.scenarios)).toEqual(SCENARIO_NAMES.map((n) => [n]));
    expect(sandbox.keys.list('acc_demo').find((k) => k.id === keyId)!.scenarios).toEqual([]);
  });

  it('magic keys keep working after every kind of clear (DELETE /__sandbox/scenarios, a scoped clear), without a reset', () => {
    const sandbox = createSandbox();
    const call = () =>
      sandbox.handle({
        method: 'GET',
        path: '/ext/agents',
        query: '',
        header: (n) => (n === 'authorization' ? `Bearer ${magicKey('rate-limited')}` : undefined),
        body: '',
        clientId: 't',
      }).status;
    expect(call()).toBe(429);
    sandbox.clearScenarios();
    expect(call()).toBe(429);
    sandbox.clearScenarios({ keyId: 'key_magic_rate_limited' });
    sandbox.clearScenarios({});
    expect(call()).toBe(429);
  });

  it('a fixture account can be set up for scenarios too (every key of it)', () => {
    const fixtures = base();
    fixtures.accounts.find((a) => a.id === 'acc_free')!.scenario = ['empty-catalog', 'failing-tasks'];
    const sandbox = createSandbox({ fixtures });
    const key = sandbox.keys.list('acc_free')[0]!.key;
    const res = sandbox.handle({
      method: 'GET',
      path: '/ext/agents',
      query: '',
      header: (n) => (n === 'authorization' ? `Bearer ${key}` : undefined),
      body: '',
      clientId: 't',
    });
    expect(JSON.parse(res.body).data).toEqual([]);
    expect(sandbox.requests[0]!.scenarios).toEqual(['empty-catalog', 'failing-tasks']);
  });

  it('an unknown scenario in a fixture set is a FixtureError naming where', () => {
    const fixtures = base();
    fixtures.keys[0]!.scenario = 'rate-limitted';
    expect(() => createSandbox({ fixtures })).toThrow(FixtureError);
    expect(() => createSandbox({ fixtures })).toThrow(/keys\[0\]\.scenario: unknown scenario "rate-limitted"/);
    // @ts-expect-error a wrong type on purpose: checked at run time
    expect(() => createSandbox({ fixtures: { ...base(), keys: [{ ...base().keys[0], scenario: 3 }] } })).toThrow(
      FixtureError,
    );
  });

  it('the banner lists the magic keys with their scenario and outcome', () => {
    const sandbox = createSandbox();
    const text = banner(sandbox, {
      version: '0',
      url: 'http://127.0.0.1:4747',
      seed: 1,
      clock: 'real',
      scenarios: [],
      controlToken: undefined,
      exposed: false,
      stateFile: undefined,
    });
    const magic = text.slice(text.indexOf('Magic keys'));
    for (const name of SCENARIO_NAMES) expect(magic).toMatch(new RegExp(`${magicKey(name)}\\s+${name}\\s+\\S`));
    expect(magic).toContain('429 rate_limit_exceeded');
    expect(text.slice(0, text.indexOf('Magic keys'))).not.toContain('ak_magic_');
  });
});
