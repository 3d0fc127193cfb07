/**
 * Where a scenario applies (the whole sandbox, one account, one key), how two compose, and how a bad scenario
 * name is refused at every door.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/rules/errors.js';
import { ScenarioError } from '../../src/scenarios/active.js';
import { generateDefaultFixtures } from '../../src/model/default-fixtures.js';
import { keyOf, overSocket, type Door } from '../support/doors.js';

const AGENT = generateDefaultFixtures(1).agents.find((a) => a.status === 'available')!.id;
const task = { agent_id: AGENT, description: 'Translate the release notes.' };

let door: Door;
beforeEach(async () => {
  door = await overSocket({ clock: 'manual' });
});
afterEach(() => door.close());

const control = (method: string, path: string, body?: unknown) =>
  door.call(method, `/../../__sandbox${path}`, { body });
const status = async (key: string, method = 'GET', path = '/ext/agents', body?: unknown) =>
  (await door.call(method, path, { key, body })).status;

describe('scope', () => {
  it('a sandbox-wide scenario applies to every account and key', async () => {
    door.sandbox.useScenario('unavailable');
    expect(await status(keyOf(door.sandbox))).toBe(503);
    expect(await status(keyOf(door.sandbox, 'admin', 'acc_free'))).toBe(503);
    expect(await status(keyOf(door.sandbox, 'read:agents'))).toBe(503);
  });

  it('an account scenario applies to that account only', async () => {
    door.sandbox.useScenario('rate-limited', { accountId: 'acc_free' });
    expect(await status(keyOf(door.sandbox, 'admin', 'acc_free'))).toBe(429);
    expect(await status(keyOf(door.sandbox))).toBe(200);
    expect(await status(keyOf(door.sandbox, 'read:agents'))).toBe(200);
  });

  it('a key scenario applies to that key only, not to the other keys of its account', async () => {
    const keyId = door.sandbox.keys.list('acc_demo').find((k) => k.label === 'read:agents')!.id;
    door.sandbox.useScenario('revoked-key', { keyId });
    expect(await status(keyOf(door.sandbox, 'read:agents'))).toBe(401);
    expect(await status(keyOf(door.sandbox))).toBe(200);
  });

  it('control API: scoped by account_id / key_id; DELETE with the same scope removes only that one', async () => {
    expect((await control('POST', '/scenarios', { name: 'rate-limited', account_id: 'acc_free' })).status).toBe(204);
    expect((await control('POST', '/scenarios', { name: 'server-error', account_id: 'acc_starter' })).status).toBe(204);
    expect(await status(keyOf(door.sandbox, 'admin', 'acc_free'))).toBe(429);
    expect(await status(keyOf(door.sandbox, 'admin', 'acc_starter'))).toBe(500);
    expect((await control('DELETE', '/scenarios?account_id=acc_free')).status).toBe(204);
    expect(await status(keyOf(door.sandbox, 'admin', 'acc_free'))).toBe(200);
    expect(await status(keyOf(door.sandbox, 'admin', 'acc_starter'))).toBe(500);
  });

  it('POST /__sandbox/accounts gives a fresh account and admin key whose scenarios, buckets and tasks are its own', async () => {
    const made = await control('POST', '/accounts', { plan: 'starter', balance_usd: 5 });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({
      plan: 'starter',
      balance_usd: 5,
      key: { account_id: made.json.id, scopes: ['admin'] },
    });
    const key = made.json.key.key as string;
    await control('POST', '/scenarios', { name: 'out-of-credits', account_id: made.json.id });
    expect(await status(key, 'POST', '/ext/tasks', task)).toBe(402);
    expect(await status(keyOf(door.sandbox), 'POST', '/ext/tasks', task)).toBe(201);
    const usage = (await door.call('GET', '/ext/usage', { key })).json;
    expect(usage.account_id).toBe(made.json.id);
    expect(usage.requests.total).toBe(2);
    expect(usage.limits.rpm).toBe(60);
  });
});

describe('composition', () => {
  it('two scenarios compose: Free limits and no credits at once', async () => {
    door.sandbox.useScenario('free-plan');
    door.sandbox.useScenario('out-of-credits', { accountId: 'acc_demo' });
    const created = await door.call('POST', '/ext/tasks', { key: keyOf(door.sandbox), body: task });
    expect(created.status).toBe(402);
    expect(created.json.error.code).toBe('insufficient_credits');
    expect(created.headers.get('x-ratelimit-limit')).toBe('10');
    expect(door.sandbox.findRequests({ scenario: 'free-plan' })[0]!.scenarios).toEqual(['free-plan', 'out-of-credits']);
  });

  it('a header scenario composes with one in force: read-only key and failing tasks', async () => {
    door.sandbox.useScenario('failing-tasks');
    const headers = { 'X-Sandbox-Scenario': 'read-only-key' };
    expect((await door.call('POST', '/ext/tasks', { key: keyOf(door.sandbox), body: task, headers })).status).toBe(403);
    const created = await door.call('POST', '/ext/tasks', { key: keyOf(door.sandbox), body: task });
    door.sandbox.clock.advance('10m');
    expect((await door.call('GET', `/ext/tasks/${created.json.id}`, { key: keyOf(door.sandbox) })).json.status).toBe(
      'failed',
    );
  });

  it('the header takes a comma-separated list', async () => {
    const res = await door.call('GET', '/ext/agents', {
      key: keyOf(door.sandbox),
      headers: { 'X-Sandbox-Scenario': 'empty-catalog, free-plan' },
    });
    expect(res.json.data).toEqual([]);
    expect(res.headers.get('x-ratelimit-limit')).toBe('10');
  });

  it('of the failures, network-error wins over server-error, which wins over unavailable', async () => {
    door.sandbox.useScenario('unavailable');
    door.sandbox.useScenario('server-error');
    expect(await status(keyOf(door.sandbox))).toBe(500);
    door.sandbox.useScenario('network-error');
    await expect(status(keyOf(door.sandbox))).rejects.toThrow(TypeError);
  });

  it('undoing one of two leaves the other in force', async () => {
    const undoRate = door.sandbox.useScenario('rate-limited');
    door.sandbox.useScenario('empty-catalog');
    undoRate();
    const res = await door.call('GET', '/ext/agents', { key: keyOf(door.sandbox) });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual([]);
  });
});

describe('bad scenario names', () => {
  it('useScenario throws a ScenarioError naming the known scenarios', () => {
    // @ts-expect-error a misspelt name on purpose: checked at run time
    expect(() => door.sandbox.useScenario('rate-limitted')).toThrow(ScenarioError);
    // @ts-expect-error a misspelt name on purpose: checked at run time
    expect(() => door.sandbox.useScenario('rate-limitted')).toThrow(/rate-limited/);
  });

  it('an unknown account or key scope is refused', () => {
    expect(() => door.sandbox.useScenario('rate-limited', { accountId: 'acc_nope' })).toThrow(/acc_nope/);
    expect(() => door.sandbox.useScenario('rate-limited', { keyId: 'key_nope' })).toThrow(/key_nope/);
  });

  it('the header with an unknown name is 400 invalid_request, answered after the key and rate checks (so it counts)', async () => {
    const res = await door.call('GET', '/ext/agents', {
      key: keyOf(door.sandbox),
      headers: { 'X-Sandbox-Scenario': 'nope' },
    });
    expect(res.status).toBe(ERRORS.invalid_request.status);
    expect(res.json.error).toEqual({ code: 'invalid_request', message: expect.stringContaining("'nope'") });
    // Counted like any admitted request (it cannot slip past the rate limit), but on no endpoint and with no scenario.
    const usage = (await door.call('GET', '/ext/usage', { key: keyOf(door.sandbox) })).json;
    expect(usage.requests.total).toBe(2);
    expect(usage.requests.by_endpoint['GET /ext/agents']).toBe(0);
  });

  it('the control API answers 400 invalid_request', async () => {
    const res = await control('POST', '/scenarios', { name: 'nope' });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('invalid_request');
    expect((await control('POST', '/scenarios', {})).status).toBe(400);
  });

  it('the CLI refuses an unknown --scenario before listening', async () => {
    const { main } = await import('../../src/cli/main.js');
    await expect(
      main(['--port', '0', '--scenario', 'nope'], { stdout: () => {}, stderr: () => {}, env: {} }),
    ).rejects.toThrow(/nope/);
  });

  it('the browser may send the header: CORS allows X-Sandbox-Scenario', async () => {
    const res = await fetch(`${door.baseUrl}/ext/agents`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization,x-sandbox-scenario',
      },
    });
    expect(res.status).toBeLessThan(300);
    expect(res.headers.get('access-control-allow-headers')).toMatch(/X-Sandbox-Scenario/i);
  });
});

describe('options', () => {
  it('latency takes ms and seeded jitter (jitterMs, or jitter_ms on the control API)', async () => {
    door.sandbox.useScenario('latency', { ms: 30, jitterMs: 20 });
    const started = performance.now();
    expect(await status(keyOf(door.sandbox))).toBe(200);
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(28);
    expect(took).toBeLessThan(400);
    door.sandbox.clearScenarios();
    expect((await control('POST', '/scenarios', { name: 'latency', options: { ms: 10, jitter_ms: 5 } })).status).toBe(
      204,
    );
  });

  it('slow-tasks takes a factor', async () => {
    door.sandbox.useScenario('slow-tasks', { factor: 2 });
    const created = await door.call('POST', '/ext/tasks', { key: keyOf(door.sandbox), body: task });
    door.sandbox.clock.advance('1500ms'); // queued 1 s by default, 2 s here
    expect((await door.call('GET', `/ext/tasks/${created.json.id}`, { key: keyOf(door.sandbox) })).json.status).toBe(
      'queued',
    );
    door.sandbox.clock.advance('600ms');
    expect((await door.call('GET', `/ext/tasks/${created.json.id}`, { key: keyOf(door.sandbox) })).json.status).toBe(
      'running',
    );
  });

  it('a bad option is refused: unknown, not a number, out of range', async () => {
    expect(() => door.sandbox.useScenario('latency', { ms: -1 })).toThrow(ScenarioError);
    expect(() => door.sandbox.useScenario('latency', { ms: 'slow' as never })).toThrow(/number from 0 to 120000/);
    expect(() => door.sandbox.useScenario('latency', { delay: 5 } as never)).toThrow(/Unknown option 'delay'/);
    const res = await control('POST', '/scenarios', { name: 'slow-tasks', options: { factor: 0 } });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('invalid_request');
  });
});
