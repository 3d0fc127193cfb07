import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenApiDocument, ERRORS, SCENARIO_NAMES } from '../../src/index.js';
import { ContractError, checkAnswer, withContract } from '../support/contract.js';
import { DOORS, keyOf, overSocket, type Door } from '../support/doors.js';

describe('the OpenAPI 3.1 document', () => {
  it('validates against the OpenAPI 3.1 schema (swagger-parser)', async () => {
    const doc = createOpenApiDocument();
    const api = await SwaggerParser.validate(structuredClone(doc) as never);
    expect((api as { openapi: string }).openapi).toBe('3.1.0');
  });

  it('describes the five endpoints, with the scope each requires', () => {
    const doc = createOpenApiDocument() as any;
    const ops = Object.entries(doc.paths).flatMap(([path, methods]: [string, any]) =>
      Object.entries(methods).map(([m, op]: [string, any]) => `${m.toUpperCase()} ${path} ${op['x-required-scope']}`),
    );
    expect(ops.sort()).toEqual([
      'GET /ext/agents read:agents',
      'GET /ext/agents/{id} read:agents',
      'GET /ext/tasks/{id} read:tasks',
      'GET /ext/usage read:usage',
      'POST /ext/tasks write:tasks',
    ]);
  });

  it('"Every response carries the rate limit headers": each response of each operation declares them, required', () => {
    const doc = createOpenApiDocument() as any;
    for (const methods of Object.values<any>(doc.paths)) {
      for (const op of Object.values<any>(methods)) {
        for (const response of Object.values<any>(op.responses)) {
          expect(Object.keys(response.headers)).toEqual(
            expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
          );
        }
      }
    }
    expect(doc.components.headers['X-RateLimit-Reset']).toMatchObject({
      required: true,
      schema: { type: 'string', format: 'date-time' },
    });
  });

  it('lists every error code of the API document with its status, under the bearer security scheme', () => {
    const doc = createOpenApiDocument() as any;
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    const listed = new Set<string>();
    for (const methods of Object.values<any>(doc.paths)) {
      for (const op of Object.values<any>(methods)) {
        for (const [status, response] of Object.entries<any>(op.responses)) {
          for (const code of Object.keys(response.content['application/json'].examples ?? {})) {
            expect(ERRORS[code as keyof typeof ERRORS].status).toBe(Number(status));
            listed.add(code);
          }
        }
      }
    }
    expect([...listed].sort()).toEqual(Object.keys(ERRORS).sort());
  });

  it('types X-Sandbox-Scenario as the catalogue names, with neutral examples, and gives cursor minLength 1', () => {
    const doc = createOpenApiDocument() as any;
    const schema = doc.components.parameters['X-Sandbox-Scenario'].schema;
    expect(schema.enum).toEqual([...SCENARIO_NAMES]);
    // Examples a generator may try: none injects a fault (an error status, a reset, a revoked key).
    expect(schema.examples.every((name: string) => ['latency', 'slow-tasks'].includes(name))).toBe(true);
    const cursor = doc.paths['/ext/agents'].get.parameters.find((p: any) => p.name === 'cursor');
    expect(cursor.schema.minLength).toBe(1);
  });

  it('takes the task body from TaskBodySchema: the fields, the required ones, the priorities', () => {
    const body = (createOpenApiDocument() as any).components.schemas.TaskBody;
    expect(body.required.sort()).toEqual(['agent_id', 'description']);
    expect(body.properties.priority.enum).toEqual(['low', 'normal', 'high', 'urgent']);
    expect(body.properties.description.maxLength).toBe(100_000);
  });

  it('is served at GET /__sandbox/openapi.json with the server URL of the request', async () => {
    const door = await overSocket({ clock: 'manual' });
    try {
      const origin = new URL(door.baseUrl).origin;
      const res = await fetch(`${origin}/__sandbox/openapi.json`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const doc = await res.json();
      expect(doc.servers).toEqual([{ url: door.baseUrl }]);
      expect(doc.paths).toEqual((createOpenApiDocument() as any).paths);
    } finally {
      await door.close();
    }
  });
});

describe.each(DOORS)('responses validate against the document (%s)', (_name, open) => {
  let door: Door;
  let admin: string;
  beforeAll(async () => {
    door = withContract(await open({ clock: 'manual' }));
    admin = keyOf(door.sandbox);
  });
  afterAll(() => door.close());

  it('a sample of successes and errors of every operation', async () => {
    const { call, sandbox } = door;
    const page = await call('GET', '/ext/agents?limit=5', { key: admin });
    await call('GET', `/ext/agents?limit=5&cursor=${page.json.next_cursor}`, { key: keyOf(sandbox, 'read:agents') });
    await call('GET', '/ext/agents?limit=100', { key: admin });
    await call('GET', '/ext/agents?limit=0', { key: admin });
    await call('GET', '/ext/agents?cursor=nope', { key: admin });
    const agent = page.json.data[0].id;
    await call('GET', `/ext/agents/${agent}`, { key: admin });
    await call('GET', '/ext/agents/agt_missing', { key: admin });
    const created = await call('POST', '/ext/tasks', {
      key: admin,
      body: { agent_id: agent, description: 'Write a haiku.', priority: 'high' },
    });
    expect(created.status).toBe(201);
    await call('POST', '/ext/tasks', {
      key: admin,
      body: { agent_id: agent, description: 'Same.' },
      headers: { 'Idempotency-Key': 'k1' },
    });
    const replay = await call('POST', '/ext/tasks', {
      key: admin,
      body: { agent_id: agent, description: 'Same.' },
      headers: { 'Idempotency-Key': 'k1' },
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await call('POST', '/ext/tasks', {
      key: admin,
      body: { agent_id: agent, description: 'Other.' },
      headers: { 'Idempotency-Key': 'k1' },
    });
    await call('POST', '/ext/tasks', { key: admin, body: { agent_id: agent, description: 'x', model: 'model-c' } });
    await call('POST', '/ext/tasks', { key: admin, body: '{not json' });
    await call('POST', '/ext/tasks', { key: admin, body: { agent_id: agent } });
    await call('POST', '/ext/tasks', { key: admin, body: { agent_id: agent, description: 'x', priority: 'asap' } });
    await call('POST', '/ext/tasks', { key: admin, body: { agent_id: 'agt_missing', description: 'x' } });
    await call('POST', '/ext/tasks', {
      key: admin,
      body: { agent_id: agent, description: 'x'.repeat(1024 * 1024 + 10) },
    });
    await call('POST', '/ext/tasks', {
      key: keyOf(sandbox, 'admin', 'acc_free'),
      body: { agent_id: agent, description: 'x' },
    });
    await call('GET', `/ext/tasks/${created.json.id}`, { key: admin });
    sandbox.clock.advance('3s');
    await call('GET', `/ext/tasks/${created.json.id}`, { key: admin });
    sandbox.clock.advance('30s');
    const done = await call('GET', `/ext/tasks/${created.json.id}`, { key: admin });
    expect(done.json.status).toBe('completed');
    await call('GET', '/ext/tasks/task_missing', { key: admin });
    await call('GET', '/ext/usage', { key: admin });
    await call('GET', '/ext/usage', { key: keyOf(sandbox, 'read:agents') });
    await call('GET', '/ext/usage');
    await call('GET', '/ext/usage', { key: 'ak_unknown' });
    await call('GET', '/ext/usage', { headers: { Authorization: 'Basic abc' } });
    await call('GET', '/ext/nothing-here', { key: admin });
    await call('DELETE', '/ext/agents', { key: admin });
    for (const scenario of SCENARIO_NAMES.filter((s) => s !== 'network-error' && s !== 'latency')) {
      await call('POST', '/ext/tasks', {
        key: admin,
        body: { agent_id: agent, description: 'x' },
        headers: { 'X-Sandbox-Scenario': scenario },
      });
      await call('GET', '/ext/agents', { key: admin, headers: { 'X-Sandbox-Scenario': scenario } });
    }
    await call('GET', '/ext/agents', { key: admin, headers: { 'X-Sandbox-Scenario': 'no-such-scenario' } });
    sandbox.tasks.fail(
      (await call('POST', '/ext/tasks', { key: admin, body: { agent_id: agent, description: 'y' } })).json.id,
      { code: 'agent_crashed', message: 'The agent stopped.' },
    );
    for (let i = 0; i < 12; i++) await call('GET', '/ext/agents', { key: keyOf(sandbox, 'admin', 'acc_free') });
  });

  it('the check fails on an answer that breaks the document', async () => {
    const good = await door.call('GET', '/ext/usage', { key: admin });
    const extra = { ...good, json: { ...good.json, surprise: 1 } };
    expect(() => checkAnswer('GET', '/ext/usage', extra)).toThrow(ContractError);
    const headers = new Headers(good.headers);
    headers.delete('x-ratelimit-reset');
    expect(() => checkAnswer('GET', '/ext/usage', { ...good, headers })).toThrow(/X-RateLimit-Reset is missing/);
    expect(() => checkAnswer('GET', '/ext/usage', { ...good, status: 402 })).toThrow(/status 402 is not listed/);
    const wrongCode = { ...good, status: 404, json: { error: { code: 'insufficient_scope', message: 'x' } } };
    expect(() => checkAnswer('GET', '/ext/agents/x', wrongCode)).toThrow(ContractError);
  });
});
