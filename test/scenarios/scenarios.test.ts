/**
 * Every scenario of the catalogue through every door that selects one (useScenario, createSandbox options, the
 * X-Sandbox-Scenario header, magic keys, the control API, the CLI's --scenario), in-process and over a socket:
 * the case is reached (status, code, headers) and, where the door is not part of the initial state, undone by
 * `reset()`.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { generateDefaultFixtures, magicKey, MAGIC_KEY_SCENARIOS } from '../../src/model/default-fixtures.js';
import { ERRORS, type ErrorCode } from '../../src/rules/errors.js';
import { API_SCENARIO_NAMES, SCENARIO_NAMES } from '../../src/scenarios/catalog.js';
import type { SandboxCore, SandboxOptions } from '../../src/sandbox-types.js';
import { inProcess, keyOf, makeCall, overSocket, type Answer, type Call } from '../support/doors.js';

const AGENT = generateDefaultFixtures(1).agents.find((a) => a.status === 'available')!.id;
const LATENCY_MS = 500;

interface Target {
  sandbox: SandboxCore;
  call: Call;
  /** Sends the X-Sandbox-Scenario header on every call when set. */
  header?: string;
  key: string;
  /** Over a real socket (else in-process through msw). */
  socket: boolean;
}

const send = (t: Target, method: string, path: string, body?: unknown) =>
  t.call(method, path, { key: t.key, body, headers: t.header ? { 'X-Sandbox-Scenario': t.header } : {} });
const plain = (t: Target, method: string, path: string, body?: unknown) => t.call(method, path, { key: t.key, body });
const createTask = (t: Target) =>
  send(t, 'POST', '/ext/tasks', { agent_id: AGENT, description: 'Summarise the quarterly report.' });

function expectError(res: Answer, code: ErrorCode): void {
  expect(res.status).toBe(ERRORS[code].status);
  expect(Object.keys(res.json)).toEqual(['error']);
  expect(res.json.error.code).toBe(code);
  expect(typeof res.json.error.message).toBe('string');
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
    expect(res.headers.get(h)).not.toBeNull();
}

function expectRetryAfter(res: Answer): void {
  expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
}

/** What each scenario changes: `on` proves it is in force, `off` that it is not. */
const CASES: Record<string, { on(t: Target): Promise<void>; off(t: Target): Promise<void> }> = {
  'out-of-credits': {
    async on(t) {
      expectError(await createTask(t), 'insufficient_credits');
      expect((await send(t, 'GET', '/ext/agents')).status).toBe(200);
    },
    async off(t) {
      expect((await createTask(t)).status).toBe(201);
    },
  },
  'rate-limited': {
    async on(t) {
      const res = await send(t, 'GET', '/ext/agents');
      expectError(res, 'rate_limit_exceeded');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Date.parse(res.headers.get('x-ratelimit-reset')!)).toBeGreaterThan(t.sandbox.clock.now());
      expectRetryAfter(res);
    },
    async off(t) {
      const res = await plain(t, 'GET', '/ext/agents');
      expect(res.status).toBe(200);
      expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(0);
    },
  },
  'revoked-key': {
    async on(t) {
      expectError(await send(t, 'GET', '/ext/agents'), 'invalid_api_key');
    },
    async off(t) {
      expect((await plain(t, 'GET', '/ext/agents')).status).toBe(200);
    },
  },
  'read-only-key': {
    async on(t) {
      const res = await createTask(t);
      expectError(res, 'insufficient_scope');
      expect(res.json.error.message).toContain('write:tasks');
      expect((await send(t, 'GET', '/ext/usage')).status).toBe(200);
    },
    async off(t) {
      expect((await createTask(t)).status).toBe(201);
    },
  },
  'free-plan': {
    async on(t) {
      const res = await send(t, 'GET', '/ext/usage');
      expect(res.status).toBe(200);
      expect(res.json.plan).toBe('free');
      expect(res.json.limits).toEqual({ rpm: 10, tpm: 10_000 });
      expect(res.headers.get('x-ratelimit-limit')).toBe('10');
    },
    async off(t) {
      const res = await plain(t, 'GET', '/ext/usage');
      expect(res.json.plan).not.toBe('free');
      expect(res.headers.get('x-ratelimit-limit')).not.toBe('10');
    },
  },
  'slow-tasks': {
    async on(t) {
      const created = await createTask(t);
      expect(created.status).toBe(201);
      t.sandbox.clock.advance('5s'); // queued 1 s and running 2–8 s by default; ten times that here
      expect((await plain(t, 'GET', `/ext/tasks/${created.json.id}`)).json.status).toBe('queued');
      t.sandbox.clock.advance('10m');
      expect((await plain(t, 'GET', `/ext/tasks/${created.json.id}`)).json.status).toBe('completed');
    },
    async off(t) {
      const created = await createTask(t);
      t.sandbox.clock.advance('5s');
      expect((await plain(t, 'GET', `/ext/tasks/${created.json.id}`)).json.status).not.toBe('queued');
    },
  },
  'failing-tasks': {
    async on(t) {
      const created = await createTask(t);
      expect(created.status).toBe(201);
      t.sandbox.clock.advance('10m');
      const task = (await plain(t, 'GET', `/ext/tasks/${created.json.id}`)).json;
      expect(task.status).toBe('failed');
      expect(task.error).toEqual({ code: 'task_failed', message: expect.any(String) });
      expect(task.usage.cost_usd).toBe(0);
    },
    async off(t) {
      const created = await createTask(t);
      t.sandbox.clock.advance('10m');
      expect((await plain(t, 'GET', `/ext/tasks/${created.json.id}`)).json.status).toBe('completed');
    },
  },
  latency: {
    async on(t) {
      const started = performance.now();
      const res = await send(t, 'GET', '/ext/agents');
      expect(res.status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(LATENCY_MS - 20);
    },
    async off(t) {
      const started = performance.now();
      expect((await plain(t, 'GET', '/ext/agents')).status).toBe(200);
      expect(performance.now() - started).toBeLessThan(LATENCY_MS - 100);
    },
  },
  'server-error': {
    async on(t) {
      expectError(await send(t, 'GET', '/ext/agents'), 'internal_error');
    },
    async off(t) {
      expect((await plain(t, 'GET', '/ext/agents')).status).toBe(200);
    },
  },
  unavailable: {
    async on(t) {
      const res = await send(t, 'GET', '/ext/agents');
      expectError(res, 'service_unavailable');
      expectRetryAfter(res);
    },
    async off(t) {
      expect((await plain(t, 'GET', '/ext/agents')).status).toBe(200);
    },
  },
  'network-error': {
    async on(t) {
      const failure = await send(t, 'GET', '/ext/agents').then(
        () => undefined,
        (error: unknown) => error,
      );
      // In-process: msw's network error (fetch rejects with a TypeError). Over a socket: the connection is reset.
      expect(failure).toBeInstanceOf(TypeError);
      const cause = (failure as { cause?: { code?: string } }).cause;
      if (t.socket) expect(cause?.code).toBe('ECONNRESET');
      else expect((failure as Error).message).toMatch(/^(Failed to fetch|fetch failed)$/); // msw 2 | msw 3
      expect(t.sandbox.findRequests({ code: 'network_error' })).toHaveLength(1);
    },
    async off(t) {
      expect((await plain(t, 'GET', '/ext/agents')).status).toBe(200);
    },
  },
  'empty-catalog': {
    async on(t) {
      const list = await send(t, 'GET', '/ext/agents');
      expect(list.status).toBe(200);
      expect(list.json).toEqual({ data: [], has_more: false, next_cursor: null });
      expectError(await send(t, 'GET', `/ext/agents/${AGENT}`), 'not_found');
    },
    async off(t) {
      expect((await plain(t, 'GET', '/ext/agents')).json.data).toHaveLength(20);
    },
  },
};

it('the table covers every scenario that changes the API, and each has a magic key (webhook scenarios: test/webhooks)', () => {
  expect(Object.keys(CASES).sort()).toEqual([...API_SCENARIO_NAMES].sort());
  expect([...MAGIC_KEY_SCENARIOS]).toEqual(API_SCENARIO_NAMES);
});

const TRANSPORTS = [
  ['in-process', inProcess],
  ['socket', overSocket],
] as const;

async function open(transport: (typeof TRANSPORTS)[number][1], options: SandboxOptions = {}) {
  const door = await transport({ clock: 'manual', ...options });
  return {
    door,
    target: (key = keyOf(door.sandbox), header?: string): Target => ({
      sandbox: door.sandbox,
      call: door.call,
      key,
      header,
      socket: door.name === 'socket',
    }),
  };
}

/** The scenario was recorded in the journal for the requests it applied to. */
function expectJournaled(sandbox: SandboxCore, name: string): void {
  expect(sandbox.findRequests({ scenario: name }).length).toBeGreaterThan(0);
}

describe.each(API_SCENARIO_NAMES)('%s', (name) => {
  const c = CASES[name]!;

  for (const [transport, openDoor] of TRANSPORTS) {
    it(`useScenario (${transport}): reached; the undo function and reset() undo it`, async () => {
      const { door, target } = await open(openDoor);
      try {
        const t = target();
        await c.off(t);
        const undo = door.sandbox.useScenario(name);
        await c.on(t);
        expectJournaled(door.sandbox, name);
        undo();
        await c.off(t);
        door.sandbox.useScenario(name);
        door.sandbox.reset();
        await c.off(target());
      } finally {
        await door.close();
      }
    });

    it(`createSandbox({ scenarios }) (${transport}): reached, and in force again after reset()`, async () => {
      const { door, target } = await open(openDoor, { scenarios: [name] });
      try {
        await c.on(target());
        door.sandbox.reset();
        await c.on(target());
      } finally {
        await door.close();
      }
    });

    it(`X-Sandbox-Scenario header (${transport}): reached for that request only`, async () => {
      const { door, target } = await open(openDoor);
      try {
        await c.on(target(undefined, name));
        expectJournaled(door.sandbox, name);
        door.sandbox.reset();
        await c.off(target());
      } finally {
        await door.close();
      }
    });

    it(`magic key ${magicKey(name)} (${transport}): reached with no configuration, and after reset()`, async () => {
      const { door, target } = await open(openDoor);
      try {
        await c.on(target(magicKey(name)));
        door.sandbox.reset();
        await c.on(target(magicKey(name)));
        await c.off(target());
      } finally {
        await door.close();
      }
    });
  }

  it('control API POST /__sandbox/scenarios (socket): reached; DELETE and POST /__sandbox/reset undo it', async () => {
    const { door, target } = await open(overSocket);
    const control = (method: string, path: string, body?: unknown) =>
      door.call(method, `/../../__sandbox${path}`, { body });
    try {
      expect((await control('POST', '/scenarios', { name })).status).toBe(204);
      await c.on(target());
      expect((await control('DELETE', '/scenarios')).status).toBe(204);
      await c.off(target());
      await control('POST', '/scenarios', { name });
      expect((await control('POST', '/reset')).status).toBe(204);
      await c.off(target());
    } finally {
      await door.close();
    }
  });

  it('CLI --scenario (socket): reached, and in force again after reset', async () => {
    const out: string[] = [];
    const run = await main(['--port', '0', '--clock', 'manual', '--scenario', name, '--quiet'], {
      stdout: (s) => out.push(s),
      stderr: () => {},
      env: {},
    });
    try {
      const baseUrl = out.join('').trim();
      const sandbox = run!.sandbox;
      const key = sandbox.keys.list('acc_demo').find((k) => k.label === 'admin')!.key;
      const t: Target = { sandbox, call: makeCall(baseUrl), key, socket: true };
      await c.on(t);
      sandbox.reset();
      await c.on(t);
    } finally {
      await run?.stop();
    }
  });
});

describe('X-Sandbox-Scenario with an unknown name', () => {
  it.each([
    ['in-process', inProcess],
    ['socket', overSocket],
  ] as const)('is a 400 invalid_request whose message lists the known names (%s)', async (_transport, openDoor) => {
    const door = await openDoor();
    try {
      const answer = await door.call('GET', '/ext/agents', {
        key: keyOf(door.sandbox),
        headers: { 'X-Sandbox-Scenario': 'bogus' },
      });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({
        error: {
          code: 'invalid_request',
          message: expect.stringContaining(`unknown scenario 'bogus'. Known scenarios: ${SCENARIO_NAMES.join(', ')}.`),
        },
      });
    } finally {
      await door.close();
    }
  });
});
