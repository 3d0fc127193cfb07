/** The control API as an interface: its OpenAPI 3.1 document, and snake_case on the whole wire. */
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/index.js';
import { CONTROL_ROUTES, createControlOpenApiDocument } from '../../src/server/control-openapi.js';
import { controlBodies } from '../../src/schemas.js';
import { toCamelCase, toSnakeCase } from '../../src/server/wire-case.js';
import { camelCaseKeys, checkControlAnswer } from '../support/control-contract.js';
import { ContractError } from '../support/contract.js';
import { keyOf } from '../support/doors.js';
import { startReceiver } from '../webhooks/receiver.js';

let sandbox: Sandbox;
let origin: string;
let close: () => Promise<void>;
beforeAll(async () => {
  sandbox = createSandbox({ clock: 'manual' });
  ({ url: origin, close } = await sandbox.listen({ port: 0 }));
});
afterAll(() => close());

/** A control request; its answer is checked against the document by the suite's fetch (control-contract-setup.ts). */
async function control(method: string, path: string, body?: unknown) {
  const res = await fetch(`${origin}/__sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
}

describe('the OpenAPI 3.1 document of the control API', () => {
  it('validates against the OpenAPI 3.1 schema (swagger-parser)', async () => {
    const api = await SwaggerParser.validate(structuredClone(createControlOpenApiDocument()) as never);
    expect((api as { openapi: string }).openapi).toBe('3.1.0');
  });

  it('is served at GET /__sandbox/control/openapi.json with the control URL of the request, without the token', async () => {
    const running = await createSandbox().listen({ port: 0, controlToken: 'sekret-token' });
    try {
      const res = await fetch(`${running.url}/__sandbox/control/openapi.json`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const doc = await res.json();
      expect(doc.servers).toEqual([{ url: `${running.url}/__sandbox` }]);
      expect(doc.paths).toEqual((createControlOpenApiDocument() as any).paths);
      expect((await fetch(`${running.url}/__sandbox/clock`)).status).toBe(401);
    } finally {
      await running.close();
    }
  });

  it('takes each body from the schema that checks it (controlBodies)', () => {
    const doc = createControlOpenApiDocument() as any;
    expect(doc.components.schemas.AccountCreateBody.properties).toHaveProperty('balance_usd');
    expect(doc.components.schemas.ScenarioBody.properties.name.enum).toEqual(
      (controlBodies.scenario.shape.name as any).options,
    );
    expect(doc.paths['/keys'].post.requestBody).toMatchObject({ required: true });
    expect(doc.paths['/reset'].post.responses['204']).toBeDefined();
    expect(doc.components.schemas.StateSnapshot.properties.accounts.items.required).toContain('balance_nano');
  });

  it('lists every route the control API answers: none of them answers "no control route"', async () => {
    for (const route of CONTROL_ROUTES) {
      const path = route.path.replace(/\{\w+\}/g, 'nope');
      const res = await control(route.method.toUpperCase(), path);
      expect(res.json?.error?.message ?? '', `${route.method} ${route.path}`).not.toMatch(/^No control route/);
    }
    expect((await control('GET', '/nothing-here')).json.error.code).toBe('not_found');
  });

  it('lists every error of every operation in the error shape, with an example code each', () => {
    const doc = createControlOpenApiDocument() as any;
    for (const methods of Object.values<any>(doc.paths))
      for (const op of Object.values<any>(methods))
        for (const [status, response] of Object.entries<any>(op.responses)) {
          if (Number(status) < 400) continue;
          expect(response.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
          expect(Object.keys(response.content['application/json'].examples).length).toBeGreaterThan(0);
        }
  });

  it('the check fails on an answer that breaks the document or carries a camelCase key', async () => {
    const good = await control('GET', '/clock');
    const headers = good.headers;
    const broken = (json: unknown) => ({ status: 200, headers, text: JSON.stringify(json) });
    expect(() => checkControlAnswer('GET', '/__sandbox/clock', broken({ ...good.json, extra: 1 }))).toThrow(
      ContractError,
    );
    expect(() => checkControlAnswer('GET', '/__sandbox/clock', { ...good, status: 201 })).toThrow(/not listed/);
    // The overview's schema is open to new fields: a new field in camelCase is caught by the walk.
    const overview = (await control('GET', '/overview')).json;
    checkControlAnswer('GET', '/__sandbox/overview', broken({ ...overview, new_field: 1 }));
    expect(() => checkControlAnswer('GET', '/__sandbox/overview', broken({ ...overview, newField: 1 }))).toThrow(
      /camelCase keys on the wire: .newField/,
    );
    expect(camelCaseKeys({ a: [{ keyId: 1 }], result: { mineToKeep: 1 } })).toEqual(['.a[0].keyId']);
  });
});

describe('snake_case on the whole wire', () => {
  it('walks every control answer and finds no camelCase key (journal, traces, deliveries, audit, overview, state)', async () => {
    const hook = await startReceiver([500, 204]);
    try {
      const key = keyOf(sandbox);
      const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
        fetch(`${origin}/api/v1${path}`, {
          method,
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const agent = sandbox.snapshot().agents[0]!.id;
      await control('POST', '/accounts/acc_demo/webhooks', { url: hook.url });
      const task = await (await api('POST', '/ext/tasks', { agent_id: agent, description: 'Walk.' })).json();
      await control('POST', '/scenarios', { name: 'latency', options: { jitter_ms: 5 } });
      await control('DELETE', '/scenarios');
      await control('POST', '/scenarios', { name: 'rate-limited' });
      await api('GET', '/ext/usage');
      await api('GET', '/ext/usage'); // a retry before the reset: a finding of the audit
      await control('DELETE', '/scenarios');
      await control('POST', `/tasks/${task.id}/complete`, { result: { keepMyCase: true } });
      await control('POST', '/webhooks/flush');
      const answers: { path: string; json: unknown }[] = [];
      const deliveries = await control('GET', '/webhooks/deliveries');
      expect(deliveries.json.data.length).toBeGreaterThan(0);
      await control('POST', `/webhooks/deliveries/${deliveries.json.data[0].id}/replay`);
      for (const path of [
        '/requests',
        '/requests/req_000001',
        '/audit',
        '/overview',
        '/accounts',
        '/keys',
        '/tasks',
        '/clock',
        '/state',
        '/webhooks',
        '/accounts/acc_demo/webhooks',
        '/webhooks/deliveries',
        '/inspector/live?charts=1',
        '/inspector/requests/1',
      ])
        answers.push({ path, json: (await control('GET', path)).json });
      answers.push({ path: 'test', json: (await control('POST', '/webhooks/test', { account_id: 'acc_demo' })).json });
      for (const { path, json } of answers) expect(camelCaseKeys(json), path).toEqual([]);
      const audit = answers.find((a) => a.path === '/audit')!.json as any;
      expect(audit.data.length).toBeGreaterThan(0);
      const tasks = answers.find((a) => a.path === '/tasks')!.json as any;
      // A task's result is the user's own data: passed as given.
      expect(tasks.data.find((t: any) => t.id === task.id).result).toEqual({ keepMyCase: true });
    } finally {
      await hook.close();
      sandbox.reset();
    }
  });

  it('a snapshot read in snake_case restores as it was; the camelCase state file is read too', async () => {
    await control('PATCH', '/accounts/acc_demo', { balance_usd: 7 });
    const saved = (await control('GET', '/state')).json;
    expect(saved.accounts[0]).toHaveProperty('balance_nano');
    await control('POST', '/reset');
    expect((await control('PUT', '/state', saved)).status).toBe(204);
    expect((await control('GET', '/state')).json).toEqual(saved);
    await control('POST', '/reset');
    expect((await control('PUT', '/state', sandbox.snapshot())).status).toBe(204);
    expect((await control('GET', '/state')).json).toEqual(toSnakeCase(sandbox.snapshot()));
    expect(sandbox.accounts.get('acc_demo')!.balance_usd).toBe(50);
    sandbox.reset();
  });

  it('converts names only: map keys, ids and a task result keep their spelling', () => {
    const value = { byEndpoint: { 'GET /ext/agents': 1 }, acc_demo: { nextAttemptAt: null }, result: { aB: 1 } };
    expect(toSnakeCase(value)).toEqual({
      by_endpoint: { 'GET /ext/agents': 1 },
      acc_demo: { next_attempt_at: null },
      result: { aB: 1 },
    });
    const names = { byEndpoint: { 'GET /ext/agents': 1 }, tasks: [{ nextAttemptAt: null, result: { a_b: 1 } }] };
    expect(toCamelCase(toSnakeCase(names))).toEqual(names);
  });
});
