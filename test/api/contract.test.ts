/**
 * The contract table: one row per rule of the API document (§4 Endpoints, §5 Authentication, §7 Errors, §8 Limits)
 * that concerns keys, scopes, errors, routes and headers, named in the document's words, run through both doors.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ERRORS, type ErrorCode } from '../../src/rules/errors.js';
import { SCOPES } from '../../src/model/scopes.js';
import { PLAN_IDS, PLANS, type PlanId } from '../../src/model/plans.js';
import { createSandbox } from '../../src/index.js';
import { DOORS, keyOf, type Answer, type Door } from '../support/doors.js';
import { expectError, expectRateHeaders } from '../support/assert.js';

/** `none`: no header; `garbage`: a well-formed key never issued; `revoked`: a key revoked with `keys.revoke`;
 * `label` or `label@account`: a fixture key; `{ header }`: the Authorization header verbatim (`{admin}` → the admin key). */
type KeySpec = 'none' | 'garbage' | 'revoked' | (string & {}) | { header: string };

interface Row {
  name: string;
  method: string;
  /** `{agent}` and `{task}` are replaced by an existing agent id and a task of acc_demo. */
  path: string;
  key: KeySpec;
  body?: unknown;
  headers?: Record<string, string>;
  setup?: (door: Door) => Promise<void> | void;
  expect: { status: number; code?: ErrorCode; message?: RegExp; limit?: number; remaining?: number };
}

const TASK_BODY = {
  agent_id: '{agent}',
  description: 'Summarise the quarterly report in five bullet points.',
  priority: 'normal',
};
const PRO_RPM = 300;
const ANONYMOUS_RPM = 60;

/** The endpoint table of §4, as the document gives it. */
const ENDPOINTS = [
  { method: 'GET', path: '/ext/agents', scope: 'read:agents', ok: 200 },
  { method: 'GET', path: '/ext/agents/{agent}', scope: 'read:agents', ok: 200 },
  { method: 'POST', path: '/ext/tasks', scope: 'write:tasks', ok: 201, body: TASK_BODY },
  { method: 'GET', path: '/ext/tasks/{task}', scope: 'read:tasks', ok: 200 },
  { method: 'GET', path: '/ext/usage', scope: 'read:usage', ok: 200 },
] as const;

const missing = (name: string, key: KeySpec): Row => ({
  name: `§5.2 A missing key gives 401 missing_api_key: ${name}`,
  method: 'GET',
  path: '/ext/agents',
  key,
  expect: { status: 401, code: 'missing_api_key' },
});
const invalid = (name: string, key: KeySpec): Row => ({
  name: `§5.3 A key that is invalid or revoked gives 401 invalid_api_key: ${name}`,
  method: 'GET',
  path: '/ext/agents',
  key,
  expect: { status: 401, code: 'invalid_api_key' },
});
const served = (name: string, key: KeySpec): Row => ({
  name,
  method: 'GET',
  path: '/ext/agents',
  key,
  expect: { status: 200 },
});
const notFound = (name: string, method: string, path: string, body?: unknown): Row => ({
  name,
  method,
  path,
  key: 'admin',
  body,
  expect: { status: 404, code: 'not_found' },
});

const ROWS: Row[] = [
  ...ENDPOINTS.map((e): Row => ({
    name: `§4 rule 1: A request to any of these paths without a key fails with 401 missing_api_key (${e.method} ${e.path})`,
    method: e.method,
    path: e.path,
    key: 'none',
    body: 'body' in e ? e.body : undefined,
    expect: { status: 401, code: 'missing_api_key' },
  })),
  missing('an empty Authorization header', { header: '' }),
  missing('`Bearer` with no key', { header: 'Bearer' }),
  missing('`Bearer` followed by spaces only', { header: 'Bearer    ' }),
  missing('another scheme, `Basic …`', { header: 'Basic dXNlcjpwYXNzd29yZA==' }),
  missing('another scheme, `Token ak_…`', { header: 'Token {admin}' }),
  missing('the key with no scheme', { header: '{admin}' }),
  served('§5.1 `Authorization: Bearer <API_KEY>`: the scheme is case-insensitive (`bearer`)', {
    header: 'bearer {admin}',
  }),
  served('§5.1 `Authorization: Bearer <API_KEY>`: the scheme is case-insensitive (`BEARER`)', {
    header: 'BEARER {admin}',
  }),
  served('§5.1 `Authorization: Bearer <API_KEY>`: extra spaces between scheme and key are allowed', {
    header: 'Bearer   {admin}',
  }),
  invalid('a key not of the form `ak_<API_KEY_BODY>` (`sk_…`)', { header: 'Bearer sk_live_0123456789abcdef' }),
  invalid('`ak_` with no body', { header: 'Bearer ak_' }),
  invalid('a prefix in the wrong case (`AK_…`)', { header: 'Bearer AK_0123456789abcdef0123456789abcdef' }),
  invalid('two words after `Bearer`', { header: 'Bearer {admin} extra' }),
  invalid('a well-formed key that was never issued', 'garbage'),
  invalid('a revoked key (§2: "A revoked key is treated as invalid")', 'revoked'),
  ...SCOPES.flatMap((scope) =>
    ENDPOINTS.map((e): Row => {
      const allowed = scope === e.scope || scope === 'admin';
      const what = `${e.method} ${e.path}`;
      const name = !allowed
        ? `§4 rule 2: A request with a key that lacks the scope in the table fails with 403 insufficient_scope (${scope} key, ${what} needs ${e.scope})`
        : scope === 'admin'
          ? `§5: A key with admin may call every endpoint (${what})`
          : `§4 table: ${what} requires ${e.scope}; a ${scope} key is served`;
      return {
        name,
        method: e.method,
        path: e.path,
        key: scope,
        body: 'body' in e ? e.body : undefined,
        expect: allowed
          ? { status: e.ok }
          : { status: 403, code: 'insufficient_scope', message: new RegExp(`'${e.scope}'`) },
      };
    }),
  ),
  notFound(
    '§4 rule 3: A request for an agent identifier that does not exist fails with 404 not_found',
    'GET',
    '/ext/agents/agt_doesnotexist0000',
  ),
  notFound(
    '§4 rule 3: A request for a task identifier that does not exist fails with 404 not_found',
    'GET',
    '/ext/tasks/task_doesnotexist000',
  ),
  notFound(
    '§4 rule 3: an agent_id that does not exist in POST /ext/tasks fails with 404 not_found',
    'POST',
    '/ext/tasks',
    { ...TASK_BODY, agent_id: 'agt_doesnotexist0000' },
  ),
  {
    name: '§4 rule 3: a task of another account does not exist for this key: 404 not_found',
    method: 'GET',
    path: '/ext/tasks/{task}',
    key: 'admin@acc_free',
    expect: { status: 404, code: 'not_found', limit: 10 },
  },
  notFound('§7 404 not_found "The requested resource does not exist": unknown path', 'GET', '/ext/nothing'),
  notFound('§7 404 not_found: unknown path below a known one', 'GET', '/ext/agents/{agent}/tasks'),
  notFound('§7 404 not_found: a trailing slash is another path', 'GET', '/ext/agents/'),
  ...[
    ['DELETE', '/ext/agents'],
    ['POST', '/ext/agents'],
    ['PUT', '/ext/tasks'],
    ['PATCH', '/ext/usage'],
    ['DELETE', '/ext/tasks/{task}'],
  ].map(([m, p]) => notFound(`§7 404 not_found: unknown method on a known path (${m} ${p})`, m!, p!)),
  {
    name: '§4 rule 4: A task that the account cannot pay for fails with 402 insufficient_credits',
    method: 'POST',
    path: '/ext/tasks',
    key: 'write:tasks',
    body: TASK_BODY,
    setup: ({ sandbox }) => void sandbox.accounts.update('acc_demo', { balanceUsd: 0 }),
    expect: { status: 402, code: 'insufficient_credits' },
  },
  {
    name: 'CONTRACT §3.5: a POST /ext/tasks body over 1 MiB fails with 413 request_too_large',
    method: 'POST',
    path: '/ext/tasks',
    key: 'write:tasks',
    body: JSON.stringify({ agent_id: 'agt_x', description: 'x'.repeat(1024 * 1024) }),
    expect: { status: 413, code: 'request_too_large' },
  },
  {
    name: 'CONTRACT §3.2 "Every authenticated request counts": one with an unknown X-Sandbox-Scenario gets 400 on the account\'s window',
    method: 'GET',
    path: '/ext/agents',
    key: 'read:agents',
    headers: { 'X-Sandbox-Scenario': 'meteor-strike' },
    expect: { status: 400, code: 'invalid_request' },
  },
  {
    name: 'CONTRACT §3 order, key before route: no key on an unknown path gets 401 missing_api_key',
    method: 'GET',
    path: '/ext/nothing',
    key: 'none',
    expect: { status: 401, code: 'missing_api_key' },
  },
  {
    name: 'CONTRACT §3 order, key before route: a revoked key on an unknown path gets 401 invalid_api_key',
    method: 'GET',
    path: '/ext/nothing',
    key: 'revoked',
    expect: { status: 401, code: 'invalid_api_key' },
  },
  {
    name: 'CONTRACT §3 order, route before scope: a key without scope on an unknown path gets 404, not 403',
    method: 'GET',
    path: '/ext/nothing',
    key: 'read:usage',
    expect: { status: 404, code: 'not_found' },
  },
  {
    name: 'CONTRACT §3 order, route before scope: a key without scope, unknown method on a known path, gets 404',
    method: 'DELETE',
    path: '/ext/usage',
    key: 'read:agents',
    expect: { status: 404, code: 'not_found' },
  },
  {
    name: 'CONTRACT §3 order, scope before resource: a key without scope on an unknown agent gets 403',
    method: 'GET',
    path: '/ext/agents/agt_doesnotexist0000',
    key: 'read:usage',
    expect: { status: 403, code: 'insufficient_scope' },
  },
  {
    name: 'CONTRACT §3 order, scope before body: a key without scope and a body that is not JSON gets 403',
    method: 'POST',
    path: '/ext/tasks',
    key: 'read:agents',
    body: '{not json',
    expect: { status: 403, code: 'insufficient_scope' },
  },
  ...[
    ['a key with no scope for the route', 'read:usage', '/ext/agents'],
    ['an unknown path', 'admin', '/ext/nothing'],
  ].map(([what, key, path]): Row => ({
    name: `CONTRACT §3 order, rate before route and scope: a rate-limited key gets 429 on ${what}`,
    method: 'GET',
    path: path!,
    key: key!,
    setup: async (door) => {
      door.sandbox.accounts.update('acc_demo', { limits: { rpm: 1 } });
      expect((await door.call('GET', '/ext/usage', { key: keyOf(door.sandbox, 'read:usage') })).status).toBe(200);
    },
    expect: { status: 429, code: 'rate_limit_exceeded', limit: 1, remaining: 0 },
  })),
];

/** Fills `{agent}`, `{task}` and `{admin}` in a string. */
type Fill = (text: string) => string;

async function send(door: Door, row: Row, fill: Fill): Promise<Answer> {
  const { sandbox } = door;
  const body =
    row.body === undefined ? undefined : typeof row.body === 'string' ? row.body : fill(JSON.stringify(row.body));
  const k = row.key;
  const headers = row.headers;
  if (k === 'none') return door.call(row.method, fill(row.path), { body, headers });
  if (typeof k === 'object')
    return door.call(row.method, fill(row.path), { body, headers: { ...headers, Authorization: fill(k.header) } });
  let key: string;
  if (k === 'garbage') key = 'ak_NeverIssuedNeverIssuedNeverIssued0';
  else if (k === 'revoked') {
    key = sandbox.keys.create({ scopes: ['admin'] }).key;
    sandbox.keys.revoke(key);
  } else {
    const [label, account] = k.split('@');
    key = keyOf(sandbox, label, account);
  }
  return door.call(row.method, fill(row.path), { key, body, headers });
}

describe.each(DOORS)('the contract table, %s door', (_name, open) => {
  let door: Door;
  beforeAll(async () => {
    door = await open({ clock: 'manual' });
  });
  afterAll(() => door.close());
  beforeEach(() => door.sandbox.reset());

  it.each(ROWS)('$name', async (row) => {
    const { sandbox } = door;
    const admin = keyOf(sandbox);
    const agent = sandbox.snapshot().agents[0]!.id;
    let task = '';
    let used = 0;
    if (row.path.includes('{task}')) {
      const created = await door.call('POST', '/ext/tasks', { key: admin, body: { ...TASK_BODY, agent_id: agent } });
      expect(created.status).toBe(201);
      task = created.json.id;
      used += 1;
    }
    await row.setup?.(door);
    const fill: Fill = (text) =>
      text.replaceAll('{agent}', agent).replaceAll('{task}', task).replaceAll('{admin}', admin);
    const before = sandbox.snapshot();
    const res = await send(door, row, fill);
    if (row.expect.code) {
      // CONTRACT §3: "A request that fails changes no state: no task, no charge, no hold."
      const after = sandbox.snapshot();
      const money = (snap: typeof before) => snap.accounts.map((a) => [a.id, a.plan, a.balanceNano, a.heldNano]);
      expect([after.tasks, money(after), after.keys.filter((k) => !k.revoked).length]).toEqual([
        before.tasks,
        money(before),
        before.keys.filter((k) => !k.revoked).length,
      ]);
    }

    expect(res.status, res.text).toBe(row.expect.status);
    if (row.expect.code) expectError(res, row.expect.code);
    else expect(Object.keys(res.json ?? {}), res.text).not.toEqual(['error']);
    if (row.expect.message) expect(res.json.error.message).toMatch(row.expect.message);
    const anonymous = row.expect.status === 401;
    const limit = row.expect.limit ?? (anonymous ? ANONYMOUS_RPM : PRO_RPM);
    expectRateHeaders(res, {
      limit,
      remaining: row.expect.remaining ?? limit - 1 - (anonymous || row.expect.limit ? 0 : used),
      resetAt: sandbox.clock.now() + 60_000,
    });
  });

  it('§8: When the limit is exceeded, the response is 429 with code rate_limit_exceeded (Free: 10 RPM), and a new window starts after 60 s', async () => {
    const { sandbox } = door;
    const key = keyOf(sandbox, 'admin', 'acc_free');
    const start = sandbox.clock.now();
    for (let i = 1; i <= 10; i++) {
      const ok = await door.call('GET', '/ext/agents', { key });
      expect(ok.status).toBe(200);
      expectRateHeaders(ok, { limit: 10, remaining: 10 - i, resetAt: start + 60_000 });
    }
    sandbox.clock.advance('30.5s');
    const over = await door.call('GET', '/ext/agents', { key });
    expectError(over, 'rate_limit_exceeded');
    expect(over.json.error.message).toMatch(/exceeded/i);
    expect(over.json.error.message).toMatch(/slow down/i);
    expect(over.headers.get('retry-after')).toBe('30');
    expectRateHeaders(over, { limit: 10, remaining: 0, resetAt: start + 60_000 });
    const post = await door.call('POST', '/ext/tasks', {
      key,
      body: { ...TASK_BODY, agent_id: sandbox.snapshot().agents[0]!.id },
    });
    expectError(post, 'rate_limit_exceeded');
    expect(sandbox.tasks.list()).toEqual([]);

    sandbox.clock.advance('60s');
    const fresh = await door.call('GET', '/ext/agents', { key });
    expect(fresh.status).toBe(200);
    expectRateHeaders(fresh, { limit: 10, remaining: 9, resetAt: sandbox.clock.now() + 60_000 });
  });

  it('§8: Retry-After is in whole seconds, rounded up, and 60 at the start of a full window', async () => {
    const { sandbox } = door;
    sandbox.accounts.update('acc_demo', { limits: { rpm: 1 } });
    const key = keyOf(sandbox);
    expect((await door.call('GET', '/ext/usage', { key })).status).toBe(200);
    expect((await door.call('GET', '/ext/usage', { key })).headers.get('retry-after')).toBe('60');
    sandbox.clock.advance(59_001);
    expect((await door.call('GET', '/ext/usage', { key })).headers.get('retry-after')).toBe('1');
  });

  it('CONTRACT §8: under concurrent requests the rate limit admits exactly its limit per window', async () => {
    const key = keyOf(door.sandbox, 'admin', 'acc_free');
    const answers = await Promise.all(Array.from({ length: 25 }, () => door.call('GET', '/ext/agents', { key })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(15);
  });

  it("§8 Plans: X-RateLimit-Limit is the plan's RPM (Free 10, Starter 60, Pro 300, Enterprise 1000)", async () => {
    const { sandbox } = door;
    for (const [account, rpm] of [
      ['acc_free', 10],
      ['acc_starter', 60],
      ['acc_demo', 300],
      ['acc_enterprise', 1000],
    ] as const) {
      const res = await door.call('GET', '/ext/usage', { key: keyOf(sandbox, 'admin', account) });
      expect(res.status).toBe(200);
      expectRateHeaders(res, { limit: rpm, remaining: rpm - 1 });
    }
  });

  it('CONTRACT §3: requests without a valid key count in an anonymous bucket per client: 429 after 60 a minute', async () => {
    const { sandbox } = door;
    const start = sandbox.clock.now();
    for (let i = 1; i <= ANONYMOUS_RPM; i++) {
      const res = await door.call('GET', '/ext/agents', {
        key: i % 2 ? undefined : 'ak_NeverIssuedNeverIssuedNeverIssued0',
      });
      expect(res.status).toBe(401);
      expectRateHeaders(res, { limit: ANONYMOUS_RPM, remaining: ANONYMOUS_RPM - i, resetAt: start + 60_000 });
    }
    const over = await door.call('GET', '/ext/agents');
    expectError(over, 'rate_limit_exceeded');
    expect(Number(over.headers.get('retry-after'))).toBe(60);
    expectRateHeaders(over, { limit: ANONYMOUS_RPM, remaining: 0 });
    // A valid key does not draw on the anonymous bucket.
    const keyed = await door.call('GET', '/ext/agents', { key: keyOf(sandbox) });
    expect(keyed.status).toBe(200);
    expectRateHeaders(keyed, { limit: PRO_RPM, remaining: PRO_RPM - 1 });
    sandbox.clock.advance('60s');
    expectError(await door.call('GET', '/ext/agents'), 'missing_api_key');
  });

  it('§8 X-RateLimit-Reset is the end of the current 60-second window, not a minute from each request', async () => {
    const { sandbox } = door;
    const start = sandbox.clock.now();
    await door.call('GET', '/ext/usage', { key: keyOf(sandbox) });
    await door.call('GET', '/ext/usage');
    sandbox.clock.advance('25s');
    expectRateHeaders(await door.call('GET', '/ext/agents', { key: keyOf(sandbox, 'read:agents') }), {
      limit: PRO_RPM,
      remaining: PRO_RPM - 2,
      resetAt: start + 60_000,
    });
    expectRateHeaders(await door.call('GET', '/ext/agents'), {
      limit: ANONYMOUS_RPM,
      remaining: ANONYMOUS_RPM - 2,
      resetAt: start + 60_000,
    });
    sandbox.clock.advance('35s');
    expectRateHeaders(await door.call('GET', '/ext/agents', { key: keyOf(sandbox) }), {
      remaining: PRO_RPM - 1,
      resetAt: start + 120_000,
    });
  });

  it("§7: every error status of the document's table is the catalogue's", () => {
    expect(
      Object.fromEntries(
        Object.entries(ERRORS)
          .slice(0, 6)
          .map(([code, e]) => [code, e.status]),
      ),
    ).toEqual({
      missing_api_key: 401,
      invalid_api_key: 401,
      insufficient_scope: 403,
      rate_limit_exceeded: 429,
      insufficient_credits: 402,
      not_found: 404,
    });
  });
});

describe('the tables of the document, as the sandbox holds them', () => {
  it('§5 Scopes (exact values): read:agents, write:agents, read:tasks, write:tasks, read:usage, read:analytics, admin', () => {
    expect([...SCOPES]).toEqual([
      'read:agents',
      'write:agents',
      'read:tasks',
      'write:tasks',
      'read:usage',
      'read:analytics',
      'admin',
    ]);
  });

  it('§8 Plans: price, monthly credits, RPM, TPM and API keys of Free, Starter, Pro and Enterprise', () => {
    const row = (id: PlanId) => {
      const p = PLANS[id];
      return [p.name, p.priceUsd, p.monthlyCreditsNano / 1e9, p.rpm, p.tpm, p.maxKeys, p.discountPercent, p.webhooks];
    };
    expect(PLAN_IDS.map(row)).toEqual([
      ['Free', 0, 0, 10, 10_000, 1, 0, false],
      ['Starter', 9, 10, 60, 60_000, 3, 0, false],
      ['Pro', 29, 50, 300, 150_000, 10, 10, true],
      ['Enterprise', 99, 200, 1000, 500_000, null, 20, true],
    ]);
  });

  it.each([
    ['acc_free', 1],
    ['acc_starter', 3],
    ['acc_demo', 10],
    ['acc_enterprise', Infinity],
  ] as const)('§2 "The number of keys per account depends on the plan": %s may hold %s live keys', (account, max) => {
    const sandbox = createSandbox({ clock: 'manual' });
    const live = () => sandbox.keys.list(account).filter((k) => !k.revoked).length;
    const target = Number.isFinite(max) ? max : 25;
    while (live() < target)
      expect(sandbox.keys.create({ accountId: account, scopes: ['read:agents'] }).key).toMatch(/^ak_[A-Za-z0-9_-]+$/);
    if (Number.isFinite(max)) {
      expect(() => sandbox.keys.create({ accountId: account, scopes: ['read:agents'] })).toThrow(/allows/);
      sandbox.keys.revoke(sandbox.keys.list(account)[0]!.id);
      expect(sandbox.keys.create({ accountId: account, scopes: ['admin'] }).accountId).toBe(account);
    }
  });
});
