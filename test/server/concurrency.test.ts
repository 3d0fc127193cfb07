/**
 * Exact limits under concurrency (CONTRACT §8: "Under concurrent load the rate limit admits exactly its limit per
 * window, and concurrent task creation never overspends a balance"), over real sockets against the CLI server.
 * The server runs with `--clock manual`, so that no window can end in the middle of a burst.
 */
import { Agent } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ERRORS, MODELS, PLANS } from '../../src/index.js';
import { costOf, pricesFor } from '../../src/rules/billing.js';
import { inputTokensFor } from '../../src/rules/tokens.js';
import type { Agent as SandboxAgent } from '../../src/model/types.js';
import { cliKey, httpCall, startCli, type CliServer } from './cli-server.js';
import { toCamelCase } from '../../src/server/wire-case.js';

let server: CliServer;
let key: string;
const agent = new Agent({ keepAlive: true, maxSockets: 1_000 });
const auth = () => ({ Authorization: `Bearer ${key}` });

beforeAll(async () => {
  server = await startCli(['--clock', 'manual']);
  key = await cliKey(server.origin);
}, 60_000);
afterAll(async () => {
  agent.destroy();
  server?.proc.kill('SIGTERM');
  await server?.exited;
});

it('1,000 concurrent GETs on a 300-RPM account admit exactly 300 and answer 429 rate_limit_exceeded to the rest', async () => {
  expect(PLANS.pro.rpm).toBe(300);
  const answers = await Promise.all(
    Array.from({ length: 1_000 }, () =>
      httpCall(server.origin, 'GET', '/api/v1/ext/agents?limit=1', { agent, headers: auth() }),
    ),
  );
  const admitted = answers.filter((a) => a.status === 200);
  const refused = answers.filter((a) => a.status === 429);
  expect(admitted).toHaveLength(300);
  expect(refused).toHaveLength(700);
  for (const a of refused) expect(a.json.error.code).toBe('rate_limit_exceeded');
  // Each admitted request saw its own place in the window: Remaining runs 299 … 0, each value once.
  expect(admitted.map((a) => Number(a.headers['x-ratelimit-remaining'])).sort((x, y) => x - y)).toEqual(
    Array.from({ length: 300 }, (_, i) => i),
  );
  const usage = await httpCall(server.origin, 'GET', '/api/v1/ext/usage', { agent, headers: auth() });
  expect(usage.status).toBe(429); // the window is still full: the usage read is refused too
}, 60_000);

it('200 concurrent task creations against a balance that pays for exactly k tasks admit exactly k; usage is the sum of what was admitted', async () => {
  const k = 37;
  // A new window, and limits that let every request and every task's tokens through: only money decides.
  await httpCall(server.origin, 'POST', '/__sandbox/clock', { body: { advance: '61s' } });
  const state = await httpCall(server.origin, 'GET', '/__sandbox/state');
  // The snapshot on the wire is snake_case; the library's agent type reads camelCase.
  const target = (toCamelCase(state.json.agents) as SandboxAgent[]).find((a) => a.status === 'available')!;
  const description = 'Summarise the quarterly report in five bullet points.';
  const hold = costOf(inputTokensFor(description, target), target.tokens.outputMax, pricesFor(target.model, PLANS.pro));
  expect(MODELS[target.model]).toBeDefined();
  const patch = await httpCall(server.origin, 'PATCH', '/__sandbox/accounts/acc_demo', {
    body: { balance_usd: (k * hold + hold / 2) / 1e9, limits: { rpm: 100_000, tpm: 1_000_000_000 } },
  });
  expect(patch.status).toBe(200);
  const before = (await httpCall(server.origin, 'GET', '/api/v1/ext/usage', { agent, headers: auth() })).json;

  const answers = await Promise.all(
    Array.from({ length: 200 }, () =>
      httpCall(server.origin, 'POST', '/api/v1/ext/tasks', {
        agent,
        headers: auth(),
        body: { agent_id: target.id, description },
      }),
    ),
  );
  const created = answers.filter((a) => a.status === 201);
  const refused = answers.filter((a) => a.status === 402);
  expect(created).toHaveLength(k);
  expect(refused).toHaveLength(200 - k);
  for (const a of refused) expect(a.json.error.code).toBe('insufficient_credits');
  expect(ERRORS.insufficient_credits.status).toBe(402);

  const during = (await httpCall(server.origin, 'GET', '/api/v1/ext/usage', { agent, headers: auth() })).json;
  expect(during.requests.total).toBe(before.requests.total + 200 + 1);
  expect(during.requests.by_endpoint['POST /ext/tasks']).toBe(before.requests.by_endpoint['POST /ext/tasks'] + 200);
  expect(during.tasks.queued).toBe(k);

  // Let every task finish, then the usage equals the sum of the admitted tasks' charges, to the last nano-dollar.
  await httpCall(server.origin, 'POST', '/__sandbox/clock', { body: { advance: '1h' } });
  const tasks = await Promise.all(
    created.map((c) => httpCall(server.origin, 'GET', `/api/v1/ext/tasks/${c.json.id}`, { agent, headers: auth() })),
  );
  for (const t of tasks) expect(t.json.status).toBe('completed');
  const nano = (usd: number) => Math.round(usd * 1e9);
  const sum = (f: (t: any) => number) => tasks.reduce((s, t) => s + f(t.json), 0);
  const after = (await httpCall(server.origin, 'GET', '/api/v1/ext/usage', { agent, headers: auth() })).json;
  expect(after.tasks.completed).toBe(k);
  expect(after.tokens.input - before.tokens.input).toBe(sum((t) => t.usage.input_tokens));
  expect(after.tokens.output - before.tokens.output).toBe(sum((t) => t.usage.output_tokens));
  expect(nano(after.cost_usd) - nano(before.cost_usd)).toBe(sum((t) => nano(t.usage.cost_usd)));
  expect(nano(before.balance_usd) - nano(after.balance_usd)).toBe(sum((t) => nano(t.usage.cost_usd)));
  expect(after.balance_usd).toBeGreaterThanOrEqual(0);
}, 60_000);
