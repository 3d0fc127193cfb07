/**
 * The library's options go through one set of zod schemas (src/sandbox/option-schemas.ts): a wrong value is refused
 * with a SandboxError (code `invalid_request`) whose message names the field, and nothing is built from it.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  createSandbox,
  FixtureError,
  SandboxError,
  ScenarioError,
  type SandboxOptions,
  type ListenOptions,
} from '../../src/index.js';

/** The error `createSandbox(options)` throws (options typed loosely: a JavaScript caller can pass anything). */
function refusal(options: unknown): SandboxError {
  try {
    createSandbox(options as SandboxOptions);
  } catch (error) {
    if (error instanceof SandboxError) return error;
    throw error;
  }
  throw new Error(`createSandbox accepted ${JSON.stringify(options)}`);
}

describe('createSandbox options are checked by their schema', () => {
  it.each([
    [{ seed: 1.5 }, 'seed: must be an integer'],
    [{ seed: '7' }, 'seed: must be an integer'],
    [{ clock: 'slow' }, "clock: must be 'real' or 'manual'"],
    [{ now: 'yesterday' }, 'now: must be an ISO 8601 time'],
    [{ baseUrl: 'api/v1' }, 'baseUrl: must be an absolute URL'],
    [{ journalSize: -1 }, 'journalSize: must be an integer ≥ 0'],
    [{ anonymousRpm: 0 }, 'anonymousRpm: must be an integer ≥ 1'],
    [{ taskTimings: { queuedMs: -5 } }, 'taskTimings.queuedMs: must be a number of milliseconds ≥ 0'],
    [{ taskTimings: { runningMs: 5 } }, "Unknown field 'taskTimings.runningMs'"],
    [{ taskRetention: -1 }, 'taskRetention: must be an integer ≥ 0 or Infinity'],
    [{ taskRetention: 2.5 }, 'taskRetention: must be an integer ≥ 0 or Infinity'],
    [{ scenarios: [3] }, 'scenarios.0: must be a scenario name or'],
    [{ scenarios: 'rate-limited' }, 'scenarios: must be a list of scenarios'],
    [{ handlers: [{}] }, 'handlers.0: must be an msw request handler'],
    [{ fixtures: 42 }, 'fixtures: must be the name of a bundled fixture set or a fixture set object'],
    [{ webhooks: { maxAttempts: 0 } }, 'webhooks.maxAttempts: must be an integer from 1 to 50'],
    [{ webhooks: { retryBaseMs: -1 } }, 'webhooks.retryBaseMs: must be a number of milliseconds ≥ 0'],
    [{ webhooks: { timeoutMs: 0 } }, 'webhooks.timeoutMs: must be a number of milliseconds > 0'],
    [{ webhooks: { flushTimeoutMs: 0 } }, 'webhooks.flushTimeoutMs: must be a number of milliseconds > 0'],
    [{ webhooks: { lowBalanceUsd: -1 } }, 'webhooks.lowBalanceUsd: must be a number ≥ 0'],
    [{ webhooks: { deliveriesKept: 0 } }, 'webhooks.deliveriesKept: must be an integer ≥ 1'],
    [{ webhooks: { endpoints: [{ callback: 'log' }] } }, 'webhooks.endpoints.0.callback: must be a function'],
    [{ clok: 'manual' }, "Unknown field 'clok' in the options of createSandbox"],
  ])('%j is refused with a SandboxError naming the field', (options, message) => {
    const error = refusal(options);
    expect(error.code).toBe('invalid_request');
    expect(error.message).toContain(message);
  });

  it('a running range upside down (runningMinMs above runningMaxMs, defaults included) is refused', () => {
    expect(refusal({ taskTimings: { runningMinMs: 9_000 } }).message).toMatch(
      /taskTimings: runningMinMs \(9000\) must not be above runningMaxMs \(8000\)/,
    );
  });

  it('valid options of every kind are accepted and take effect', async () => {
    const sandbox = createSandbox({
      seed: 7,
      fixtures: 'marketplace',
      baseUrl: 'https://api.example.com/api/v1',
      clock: 'manual',
      now: new Date('2026-03-01T00:00:00Z'),
      scenarios: ['latency', { name: 'rate-limited', accountId: 'acc_demo' }],
      journalSize: 0,
      anonymousRpm: 10,
      taskTimings: { queuedMs: 0, runningMinMs: 100, runningMaxMs: 100 },
      handlers: [http.get('*/api/v1/ext/extra', () => HttpResponse.json({ ok: true }))],
      webhooks: { maxAttempts: 1, lowBalanceUsd: 0, deliveriesKept: 1, flushTimeoutMs: 10 },
      taskRetention: Infinity,
    });
    expect(sandbox.seed).toBe(7);
    expect(sandbox.basePath).toBe('/api/v1');
    expect(new Date(sandbox.clock.now()).toISOString()).toBe('2026-03-01T00:00:00.000Z');
    const res = await sandbox.fetch('https://api.example.com/api/v1/ext/agents');
    expect(res.status).toBe(401);
    expect(sandbox.requests).toEqual([]); // journalSize 0 keeps nothing
  });

  it('no options, empty options and options all undefined give the same default sandbox', () => {
    const snapshots = [createSandbox(), createSandbox({}), createSandbox({ seed: undefined, clock: undefined })].map(
      (s) => s.snapshot().seed,
    );
    expect(snapshots).toEqual([1, 1, 1]);
  });

  it('what the schema cannot know is still refused by its own error class: a fixture set name, a scenario name', () => {
    expect(() => createSandbox({ fixtures: 'marketpalce' as never })).toThrow(FixtureError);
    expect(() => createSandbox({ scenarios: ['rate-limitted' as never] })).toThrow(ScenarioError);
  });
});

describe('listen() options are checked by their schema', () => {
  it.each([
    [{ port: 70_000 }, 'port: must be an integer from 0 to 65535'],
    [{ port: '4747' }, 'port: must be an integer from 0 to 65535'],
    [{ headersTimeoutMs: 0 }, 'headersTimeoutMs: must be a number of milliseconds > 0'],
    [{ controlToken: '' }, 'controlToken: must not be empty'],
    [{ prot: 80 }, "Unknown field 'prot' in the options of listen()"],
  ])('%j is refused with a SandboxError naming the field, and no server starts', async (options, message) => {
    const sandbox = createSandbox();
    const started = sandbox.listen(options as ListenOptions);
    await expect(started).rejects.toThrow(SandboxError);
    await expect(started).rejects.toThrow(message);
  });
});
