/**
 * Generators and checks of the fuzz run, shared by `fuzz.test.ts` (CI-sized) and `scripts/fuzz-long.mjs` (long).
 * A case is a request as the core sees it, plus what the case asked for (scenarios), so the checks know what to allow.
 */
import fc from 'fast-check';
import { ERRORS, SCENARIO_NAMES, type ErrorCode, type StateSnapshot } from '../../src/index.js';

export interface FuzzCase {
  method: string;
  path: string;
  query: string;
  headers: [string, string][];
  body: string;
  clientId: string;
  /** Move the clock past the rate window before the request (outside the before/after comparison). */
  advance: boolean;
}

/** What the generators draw keys from: the sandbox's own keys (valid, revoked, scoped) and agent/task ids. */
export interface Pools {
  keys: string[];
  agentIds: string[];
  taskIds: () => string[];
}

const SEGMENTS = [
  'ext',
  'agents',
  'tasks',
  'usage',
  '..',
  '.',
  '',
  '%00',
  '%zz',
  '%',
  '%2e%2e',
  '%2F',
  '%252F',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'é',
  '𝕏',
  '\u202e',
  'agt_',
  'task_',
  'null',
  'undefined',
  '-1',
  '1e309',
];

const segment = (pools: Pools) =>
  fc.oneof(
    fc.constantFrom(...SEGMENTS),
    fc.constantFrom(...pools.agentIds),
    fc.string({ maxLength: 20 }),
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.integer({ min: 1, max: 20_000 }).map((n) => 'a'.repeat(n)),
  );

const KNOWN_PATHS = ['/ext/agents', '/ext/usage', '/ext/tasks', '/ext/agents/', '/ext/tasks/', '/ext', '/', ''];

const path = (pools: Pools) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...KNOWN_PATHS) },
    {
      weight: 3,
      arbitrary: fc.tuple(fc.constantFrom('/ext/agents/', '/ext/tasks/'), segment(pools)).map(([p, s]) => p + s),
    },
    { weight: 2, arbitrary: fc.array(segment(pools), { maxLength: 6 }).map((s) => `/${s.join('/')}`) },
    { weight: 1, arbitrary: fc.constantFrom(...pools.agentIds).map((id) => `/ext/agents/${id}`) },
    { weight: 1, arbitrary: fc.constant(0).map(() => `/ext/tasks/${pools.taskIds()[0] ?? 'task_none'}`) },
  );

const query = fc.oneof(
  fc.constant(''),
  fc.constantFrom(
    'limit=1',
    'limit=100',
    'limit=0',
    'limit=101',
    'limit=-1',
    'limit=1e2',
    'limit=',
    'limit=abc',
    'limit=20&limit=5',
    '__proto__[x]=1',
    'constructor=1',
    '%zz',
    'cursor=',
    'cursor=%zz',
    'cursor=YWd0Xw',
    'limit=99999999999999999999',
  ),
  fc.string({ maxLength: 40 }).map((s) => `cursor=${encodeURIComponent(s)}`),
  fc.string({ maxLength: 60 }),
  fc
    .dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 12 }), { maxKeys: 4 })
    .map((d) => new URLSearchParams(d).toString()),
);

const METHODS = [
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'HEAD',
  'OPTIONS',
  'TRACE',
  'get',
  'post',
  'CONNECT',
  'PROPFIND',
];

/** Scenarios a request may ask for; those that answer 5xx or fail the connection are noted by the checks. */
const scenarioHeader = fc.oneof(
  { weight: 12, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc
      .subarray(
        SCENARIO_NAMES.filter((n) => n !== 'latency'),
        { maxLength: 3 },
      )
      .map((s) => s.join(', ')),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);

const authorization = (pools: Pools) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...pools.keys).map((k) => `Bearer ${k}`) },
    { weight: 1, arbitrary: fc.constantFrom(...pools.keys).map((k) => `bEaReR   ${k}  `) },
    { weight: 1, arbitrary: fc.constantFrom(...pools.keys).map((k) => `Bearer ${k}, Bearer ${k}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...pools.keys).map((k) => `Bearer ${k.slice(0, -1)}${k.endsWith('A') ? 'B' : 'A'}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        'Bearer',
        'Bearer ',
        'Basic dXNlcjpwYXNz',
        'Token ak_x',
        'ak_abc',
        'Bearer ak_',
        'Bearer ak_\u0000',
        'Bearer ak_é',
        'Bearer\tak_tab',
        'Bearer ak_a b',
      ),
    },
    { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 200_000 }).map((n) => `Bearer ak_${'A'.repeat(n)}`) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map((s) => `Bearer ${s}`) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  );

const headerName = fc.constantFrom(
  'content-type',
  'idempotency-key',
  'x-sandbox-scenario',
  'accept',
  'x-forwarded-for',
  'origin',
  'host',
  '__proto__',
  'constructor',
);

const headers = (pools: Pools) =>
  fc
    .record(
      {
        authorization: fc.option(authorization(pools), { nil: undefined, freq: 8 }),
        scenario: scenarioHeader,
        idempotency: fc.option(
          fc.oneof(
            fc.string({ maxLength: 20 }),
            fc.constant(''),
            fc.constant('x'.repeat(300)),
            fc.constantFrom('k1', 'k2'),
          ),
          { nil: undefined, freq: 3 },
        ),
        extra: fc.array(fc.tuple(headerName, fc.string({ unit: 'binary', maxLength: 30 })), { maxLength: 3 }),
      },
      { requiredKeys: ['authorization', 'scenario', 'idempotency', 'extra'] },
    )
    .map(({ authorization: a, scenario, idempotency, extra }) => {
      const out: [string, string][] = [];
      if (a !== undefined) out.push(['authorization', a]);
      if (scenario !== undefined) out.push(['x-sandbox-scenario', scenario]);
      if (idempotency !== undefined) out.push(['idempotency-key', idempotency]);
      return [...out, ...extra];
    });

const nested = (open: string, close: string) =>
  fc.integer({ min: 1, max: 200_000 }).map((n) => open.repeat(n) + close.repeat(n));

const body = (pools: Pools) => {
  const agent = fc.constantFrom(...pools.agentIds);
  const validTask = fc.record({
    agent_id: agent,
    description: fc.string({ minLength: 1, maxLength: 200 }),
    priority: fc.constantFrom(undefined, 'low', 'normal', 'high', 'urgent'),
    model: fc.constantFrom(undefined, 'model-a', 'model-b', 'model-c'),
  });
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant('') },
    { weight: 12, arbitrary: validTask.map((t) => JSON.stringify(t)) },
    { weight: 2, arbitrary: fc.string({ maxLength: 60 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{',
        '}',
        '[]',
        'null',
        'true',
        '1',
        '"x"',
        '{"agent_id":',
        '{"a":1,}',
        "{'a':1}",
        '\uFEFF{}',
        '{"description":"\\ud800"}',
        'NaN',
      ),
    },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        nested('[', ']'),
        fc.integer({ min: 1, max: 200_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(agent, fc.constantFrom(100_001, 400_000, 1_100_000))
        .map(([a, n]) => JSON.stringify({ agent_id: a, description: 'x'.repeat(n) })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(agent, fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'))
        .map(
          ([a, k]) =>
            `{"${k}":{"polluted":"yes","prototype":{"polluted":"yes"}},"agent_id":"${a}","description":"d","__proto__":{"priority":"urgent"}}`,
        ),
    },
    {
      weight: 2,
      arbitrary: fc
        .record(
          { agent_id: fc.anything(), description: fc.anything(), priority: fc.anything(), model: fc.anything() },
          { requiredKeys: [] },
        )
        .map((o) => {
          try {
            return JSON.stringify(o) ?? '';
          } catch {
            return '{}';
          }
        }),
    },
  );
};

/** Anything at all: every field drawn from the wild generators. */
const wildCase = (pools: Pools): fc.Arbitrary<FuzzCase> =>
  fc.record({
    method: fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom('GET', 'POST') },
      { weight: 2, arbitrary: fc.constantFrom(...METHODS) },
      { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
    ),
    path: path(pools),
    query: query,
    headers: headers(pools),
    body: body(pools),
    clientId: fc.constantFrom('fuzz-a', 'fuzz-b', '', '__proto__'),
    advance: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
  });

/** A well-formed request to one of the five endpoints with a real key, and at most a little of the wild in it. */
const nearlyValidCase = (pools: Pools): fc.Arbitrary<FuzzCase> =>
  fc
    .record({
      route: fc.oneof(
        fc.constant({ method: 'GET', path: '/ext/agents' }),
        fc.constantFrom(...pools.agentIds).map((id) => ({ method: 'GET', path: `/ext/agents/${id}` })),
        { weight: 4, arbitrary: fc.constant({ method: 'POST', path: '/ext/tasks' }) },
        fc.constant(0).map(() => ({ method: 'GET', path: `/ext/tasks/${pools.taskIds()[0] ?? 'task_none'}` })),
        fc.constant({ method: 'GET', path: '/ext/usage' }),
      ),
      key: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...pools.keys.slice(0, 1)) },
        fc.constantFrom(...pools.keys),
      ),
      query: fc.oneof({ weight: 4, arbitrary: fc.constant('') }, query),
      extra: fc.oneof({ weight: 4, arbitrary: fc.constant([] as [string, string][]) }, headers(pools)),
      body: body(pools),
      advance: fc.integer({ min: 0, max: 49 }).map((n) => n === 0),
    })
    .map(({ route, key, query: q, extra, body: b, advance }) => ({
      method: route.method,
      path: route.path,
      query: q,
      headers: [
        ['authorization', `Bearer ${key}`] as [string, string],
        ...extra.filter(([n]) => n !== 'authorization'),
      ],
      body: route.method === 'POST' ? b : '',
      clientId: 'fuzz-a',
      advance,
    }));

/** Three in four cases are nearly valid (so they reach the body, money and token checks), one in four is wild. */
export const fuzzCase = (pools: Pools): fc.Arbitrary<FuzzCase> =>
  fc.oneof({ weight: 3, arbitrary: nearlyValidCase(pools) }, { weight: 1, arbitrary: wildCase(pools) });

/** The request as the core takes it: header lookup by lower-case name, duplicates joined as node joins them. */
export function toPlainRequest(c: FuzzCase) {
  return {
    method: c.method,
    path: c.path,
    query: c.query,
    header: (name: string) => {
      const values = c.headers.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v);
      return values.length === 0 ? undefined : values.join(', ');
    },
    body: c.body,
    clientId: c.clientId,
  };
}

/** Scenario names a case asked for in its `X-Sandbox-Scenario` header. */
export function askedScenarios(headerPairs: [string, string][]): string[] {
  return headerPairs
    .filter(([n]) => n.toLowerCase() === 'x-sandbox-scenario')
    .flatMap(([, v]) => v.split(',').map((s) => s.trim()));
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Every check on one answer; returns the list of what is wrong (empty when all holds). */
export function checkAnswer(
  res: { status: number; headers: Record<string, string>; body: string },
  asked: string[],
  networkError = false,
  headRequest = false,
): string[] {
  const problems: string[] = [];
  const may5xx = asked.includes('server-error') || asked.includes('unavailable');
  if (networkError) {
    if (!asked.includes('network-error')) problems.push('a network error nobody asked for');
    return problems;
  }
  if (res.status >= 500 && !may5xx) problems.push(`status ${res.status} with no scenario asking for it`);
  if (res.status < 200 || res.status > 599) problems.push(`status ${res.status}`);
  const h = (name: string) => Object.entries(res.headers).find(([n]) => n.toLowerCase() === name)?.[1];
  if (!/^\d+$/.test(h('x-ratelimit-limit') ?? '')) problems.push(`X-RateLimit-Limit ${h('x-ratelimit-limit')}`);
  if (!/^\d+$/.test(h('x-ratelimit-remaining') ?? ''))
    problems.push(`X-RateLimit-Remaining ${h('x-ratelimit-remaining')}`);
  if (!ISO.test(h('x-ratelimit-reset') ?? '')) problems.push(`X-RateLimit-Reset ${h('x-ratelimit-reset')}`);
  if (/\n\s+at /.test(res.body)) problems.push('a stack trace in the body');
  if (headRequest) return res.body === '' ? problems : [...problems, 'a body in the answer to HEAD'];
  let json: any;
  try {
    json = JSON.parse(res.body);
  } catch {
    problems.push(`body is not JSON: ${res.body.slice(0, 80)}`);
    return problems;
  }
  if (res.status >= 400) problems.push(...checkErrorShape(json, res.status));
  return problems;
}

/** `{ "error": { "code", "message" } }` exactly, with a code of the catalogue whose status is the answer's. */
export function checkErrorShape(json: any, status: number): string[] {
  const problems: string[] = [];
  if (!json || typeof json !== 'object' || Array.isArray(json) || Object.keys(json).join() !== 'error')
    return [`not the error shape: ${JSON.stringify(json).slice(0, 120)}`];
  const e = json.error;
  if (!e || typeof e !== 'object' || Object.keys(e).sort().join() !== 'code,message')
    return [`not the error shape: ${JSON.stringify(json).slice(0, 120)}`];
  if (!(e.code in ERRORS)) problems.push(`code ${e.code} is not in ERRORS`);
  else if (ERRORS[e.code as ErrorCode].status !== status) problems.push(`code ${e.code} with status ${status}`);
  if (typeof e.message !== 'string' || e.message === '') problems.push('empty message');
  return problems;
}

/**
 * The state a failed request must leave as it was. Left out, because every request moves them by design (CONTRACT §3:
 * "every authenticated request counts"): the rate buckets (`buckets`, `anonymous`: the request's own count in its
 * window; tokens taken in the current window are compared) and the account's request counters (`usage.requests`, `usage.byEndpoint`). Everything else — accounts'
 * balances and holds, tokens and cost, task counts, keys, agents, tasks, idempotency entries, id counters — must be equal.
 */
export function comparable(snap: StateSnapshot): unknown {
  return {
    ...snap,
    // Tokens held in a window still running must not move (a task that fails to be created takes none).
    buckets: snap.buckets
      .filter(([, b]) => snap.now < b.windowStart + 60_000 && b.tokens > 0)
      .map(([id, b]) => [id, b.tokens]),
    anonymous: [],
    accounts: snap.accounts.map((a) => ({ ...a, usage: { ...a.usage, requests: 0, byEndpoint: {} } })),
  };
}

/** Own property names and descriptors of the built-in prototypes, to see that nothing was added or changed. */
export function prototypeFingerprint(): string {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype]
    .map((p) =>
      Object.getOwnPropertyNames(p)
        .sort()
        .map((n) => `${n}:${typeof Object.getOwnPropertyDescriptor(p, n)!.value}`)
        .join(','),
    )
    .join('|');
}

/** The seed of a run: `FUZZ_SEED` when given, else the fixed default (CI is reproducible); printed either way. */
export function fuzzSeed(fallback = 20261122): number {
  const raw = process.env.FUZZ_SEED;
  if (raw === 'random') return (Date.now() ^ (Math.random() * 2 ** 31)) | 0;
  return raw === undefined || raw === '' ? fallback : Number.parseInt(raw, 10) | 0;
}
