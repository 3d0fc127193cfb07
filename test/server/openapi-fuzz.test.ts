/**
 * A property-based fuzzer over the OpenAPI document (fast-check, in place of Schemathesis: docs/decisions/
 * openapi-fuzzer.md). Requests are generated from the document itself: each operation, its path, query and header
 * parameters and its body, drawn from their schemas (valid values) and around them (wrong types, out of range, empty,
 * unknown fields and parameters), sent in sequence to one server on 127.0.0.1 so that state builds up (tasks created,
 * then read; idempotency keys reused). Every answer must match the document (status listed for the operation, body
 * schema, headers) and the error shape, and no request may get a 5xx it did not ask for. Bounded to about a minute;
 * `FUZZ_SEED=n` replays a run.
 *
 * Known, intended behaviours (not findings):
 * - the anonymous rate bucket: requests without a key share one bucket, so they may answer 429 (listed);
 * - extra query parameters are ignored (the API document names none that must be refused);
 * - an Idempotency-Key reused with another body answers the idempotency conflict in the error shape;
 * - `X-Sandbox-Scenario: server-error` / `unavailable` answer 500 / 503 on purpose; `network-error` resets the socket
 *   and `latency` delays in real time, so those two are not drawn.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenApiDocument } from '../../src/core/openapi.js';
import { SCENARIO_NAMES } from '../../src/scenarios/catalog.js';
import { checkAnswer } from '../support/contract.js';
import { keyOf, overSocket, type Door } from '../support/doors.js';
import { fuzzSeed } from './fuzz-cases.js';

const doc = createOpenApiDocument() as any;
const seed = fuzzSeed();
const runs = Number(process.env.FUZZ_RUNS ?? 3000);
const TIME_LIMIT_MS = 60_000;
console.log(`openapi fuzz seed ${seed} (replay with FUZZ_SEED=${seed})`);

const deref = (node: any): any =>
  node?.$ref
    ? node.$ref
        .slice(2)
        .split('/')
        .reduce((o: any, k: string) => o[k], doc)
    : node;

/** Values a schema accepts (the subset of JSON Schema the document uses). */
function valid(schema: any): fc.Arbitrary<unknown> {
  const s = deref(schema);
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.type === 'integer') return fc.integer({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6 });
  if (s.type === 'string')
    return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 40) });
  if (s.type === 'object') {
    const entries = Object.entries<any>(s.properties ?? {}).map(([k, v]) => [k, valid(v)] as const);
    return fc.record(Object.fromEntries(entries), { requiredKeys: s.required ?? [] });
  }
  return fc.jsonValue();
}

/** Values around a schema: mostly valid, some of the wrong type, empty, or out of range. */
function around(schema: any): fc.Arbitrary<unknown> {
  const s = deref(schema);
  return fc.oneof(
    { weight: 6, arbitrary: valid(s) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', ' ', '-1', '0', '1e400', 'NaN', '%00', '__proto__', '💥', 'x'.repeat(300)),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  );
}

interface Case {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

function operationCase(path: string, method: string, op: any, pools: Pools): fc.Arbitrary<Case> {
  const params: any[] = (op.parameters ?? []).map(deref);
  const query = params.filter((p) => p.in === 'query');
  const headerParams = params.filter((p) => p.in === 'header' && p.name !== 'X-Sandbox-Scenario');
  const id = fc.oneof(fc.constantFrom(...pools.ids()), around({ type: 'string' }).map(String));
  const scenario = fc.option(
    fc.constantFrom(...SCENARIO_NAMES.filter((n) => n !== 'network-error' && n !== 'latency')),
    {
      freq: 8,
    },
  );
  const auth = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...pools.keys).map((k) => `Bearer ${k}`) },
    { weight: 1, arbitrary: fc.constantFrom('', 'Bearer ', 'Basic abc', 'Bearer ak_nope', 'bearer   x') },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
  const queryValues = fc.tuple(
    ...query.map((p) => fc.option(around(p.schema).map((v) => [p.name, String(v)] as const))),
    fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 8 }))),
  );
  const headerValues = fc.tuple(
    ...headerParams.map((p) =>
      fc.option(fc.oneof(fc.constantFrom('k1', 'k2'), valid(p.schema)).map((v) => [p.name, String(v)] as const)),
    ),
  );
  const body = op.requestBody
    ? fc.oneof(
        {
          weight: 6,
          arbitrary: fc
            .tuple(
              valid(op.requestBody.content['application/json'].schema),
              fc.constantFrom(...pools.agentIds, 'agt_missing'),
            )
            .map(([b, agent]) => JSON.stringify({ ...(b as object), agent_id: agent })),
        },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)) },
        { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
      )
    : fc.constant(undefined);
  return fc.record({ id, scenario, auth, queryValues, headerValues, body }).map((c) => {
    const headers: Record<string, string> = {};
    if (c.auth !== undefined) headers.authorization = c.auth;
    if (c.scenario) headers['x-sandbox-scenario'] = c.scenario;
    for (const h of c.headerValues) if (h) headers[h[0].toLowerCase()] = h[1].replace(/[^\x20-\x7e]/g, '');
    if (c.body !== undefined) headers['content-type'] = 'application/json';
    const search = new URLSearchParams(c.queryValues.filter((q) => q !== null) as [string, string][]).toString();
    const concrete = path.replace('{id}', encodeURIComponent(c.id));
    return { method: method.toUpperCase(), path: `${concrete}${search ? `?${search}` : ''}`, headers, body: c.body };
  });
}

interface Pools {
  keys: string[];
  agentIds: string[];
  ids: () => string[];
}

describe('a property-based fuzzer over the OpenAPI document', () => {
  let door: Door;
  let pools: Pools;
  const created: string[] = [];
  beforeAll(async () => {
    door = await overSocket({ clock: 'manual', seed: 11, anonymousRpm: 5 });
    door.sandbox.accounts.update('acc_demo', { limits: { rpm: 10_000_000, tpm: 1_000_000_000 } });
    const agentIds = door.sandbox.snapshot().agents.map((a) => a.id);
    pools = {
      keys: [keyOf(door.sandbox), keyOf(door.sandbox, 'read:agents'), keyOf(door.sandbox, 'admin', 'acc_free')],
      agentIds,
      ids: () => [...agentIds.slice(0, 3), ...created.slice(-3), 'task_missing'],
    };
  });
  afterAll(() => door.close());

  it('finds nothing: every answer matches the document, in the error shape, with no 5xx not asked for', async () => {
    const operations = Object.entries<any>(doc.paths).flatMap(([path, methods]) =>
      Object.entries<any>(methods).map(([method, op]) => ({ path, method, op })),
    );
    const findings: string[] = [];
    const caseOf = fc.constantFrom(...operations).chain((o) => operationCase(o.path, o.method, o.op, pools));
    const result = await fc.check(
      fc.asyncProperty(caseOf, async (c) => {
        const answer = await door.call(c.method, c.path, { headers: c.headers, body: c.body });
        const asked = c.headers['x-sandbox-scenario'];
        const problem = findingOf(c, answer, asked);
        if (problem) findings.push(problem);
        if (answer.status === 201) created.push(answer.json.id as string);
        door.sandbox.clock.advance('1s'); // the anonymous bucket and rate windows move on
        return problem === undefined;
      }),
      {
        seed,
        numRuns: runs,
        interruptAfterTimeLimit: TIME_LIMIT_MS,
        markInterruptAsFailure: false,
        endOnFailure: true,
      },
    );
    expect(findings).toEqual([]);
    expect(result.failed).toBe(false);
    expect(result.numRuns).toBeGreaterThan(200); // it did run: a bound reached at once would prove nothing
  }, 120_000);

  it('the finding check does fail on an answer that breaks the document, or a 5xx not asked for', async () => {
    const c: Case = { method: 'GET', path: '/ext/usage', headers: {} };
    const good = await door.call('GET', '/ext/usage', { key: pools.keys[0] });
    expect(findingOf(c, good)).toBeUndefined();
    expect(findingOf(c, { ...good, json: { ...good.json, surprise: 1 } })).toMatch(/Contract/);
    const crash = { ...good, status: 500, json: { error: { code: 'internal_error', message: 'x' } } };
    expect(findingOf(c, crash)).toMatch(/500 not asked for/);
    expect(findingOf(c, crash, 'server-error')).toBeUndefined();
  });
});

/** What is wrong with an answer, or undefined. The contract check is the document's own schemas. */
function findingOf(
  c: Case,
  answer: { status: number; text: string; json: any; headers: Headers },
  asked?: string,
): string | undefined {
  try {
    checkAnswer(c.method, c.path, answer);
  } catch (error) {
    return `${c.method} ${c.path}: ${(error as Error).message}`;
  }
  const intended5xx = asked === 'server-error' || asked === 'unavailable';
  if (answer.status >= 500 && !intended5xx)
    return `${c.method} ${c.path} ${JSON.stringify(c.headers)}: ${answer.status} not asked for`;
  if (answer.status >= 400 && (typeof answer.json?.error?.code !== 'string' || Object.keys(answer.json).length !== 1))
    return `${c.method} ${c.path}: ${answer.status} not in the error shape`;
  if (/\n\s+at\s|node:internal/.test(answer.text)) return `${c.method} ${c.path}: a stack trace in the answer`;
  return undefined;
}
