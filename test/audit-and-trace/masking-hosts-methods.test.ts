/**
 * Issue 14, items 1–3: keys masked in every encoding, the control API and the inspector for loopback names only
 * (no DNS rebinding), HEAD answered as GET and every non-preflight answer with the rate-limit headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/index.js';
import { maskKeys } from '../../src/core/mask.js';
import { isLoopback } from '../../src/server/loopback.js';
import { httpCall } from '../server/cli-server.js';

let sandbox: Sandbox;
let origin: string;
let close: () => Promise<void>;
let key: string;

beforeAll(async () => {
  sandbox = createSandbox({ clock: 'manual' });
  key = sandbox.keys.create({ scopes: ['admin'] }).key;
  const running = await sandbox.listen({ port: 0 });
  origin = running.url;
  close = running.close;
});
afterAll(() => close());

/** Everything the journal shows, as one text: the library's list, the control API's and the overview's (which also lists keys, on purpose). */
async function everythingRecorded(): Promise<string> {
  const requests = await httpCall(origin, 'GET', '/__sandbox/requests');
  const overview = await httpCall(origin, 'GET', '/__sandbox/overview');
  return (
    JSON.stringify(sandbox.findRequests()) +
    requests.text +
    JSON.stringify((overview.json as { requests: unknown }).requests)
  );
}

describe('secrets in every encoding', () => {
  const body = () => key.slice(3);
  const encodings: [string, () => { path: string; method?: string; headers?: Record<string, string> }][] = [
    [
      'Bearer ak%5F… (an encoded underscore in the header)',
      () => ({ path: '/api/v1/ext/agents', headers: { authorization: `Bearer ak%5F${body()}` } }),
    ],
    ['%61k_… in the path', () => ({ path: `/api/v1/ext/tasks/%61k_${body()}` })],
    ['?api_key=ak%5F… in the query', () => ({ path: `/api/v1/ext/agents?api_key=ak%5F${body()}` })],
    ['a key encoded twice (%2561k_…)', () => ({ path: `/api/v1/ext/%2561k%255F${body()}` })],
    ['a key in an unknown path', () => ({ path: `/api/v1/nowhere/${key}` })],
    ['a key as an unknown method', () => ({ path: '/api/v1/ext/agents', method: key })],
  ];
  for (const [name, make] of encodings) {
    it(`never records or echoes a whole key: ${name}`, async () => {
      const c = make();
      const answer = await httpCall(origin, c.method ?? 'GET', c.path, {
        headers: { authorization: `Bearer ${key}`, ...c.headers },
      });
      expect(answer.text).not.toContain(body());
      const recorded = await everythingRecorded();
      expect(recorded).not.toContain(body());
      expect(recorded).not.toContain(encodeURIComponent(body()));
    });
  }

  it('masks after decoding, keeping the key prefix for recognition', () => {
    expect(maskKeys(`/x/%61k_${body()}`)).toBe(`/x/${key.slice(0, 7)}…`);
    expect(maskKeys(`/x/ak%5F${body()}`)).toBe(`/x/${key.slice(0, 7)}…`);
    expect(maskKeys('/ext/tasks?q=%ZZ')).toBe('/ext/tasks?q=%ZZ');
  });
});

describe('DNS rebinding: loopback names only', () => {
  it('is loopback: IP literals in 127.0.0.0/8, ::1 and exactly localhost; nothing else', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost', 'LOCALHOST'])
      expect(isLoopback(host), host).toBe(true);
    for (const host of [
      '127.attacker.example',
      '127.0.0.1.nip.io',
      'localhost.attacker.example',
      'localhost.',
      '0.0.0.0',
      '128.0.0.1',
      '',
    ])
      expect(isLoopback(host), host).toBe(false);
  });

  const hostile = [
    '127.attacker.example',
    '127.0.0.1.nip.io',
    'localhost.evil.example',
    'evil.example',
    '127.0.0.1@evil.example',
    '127.1',
  ];
  for (const host of hostile) {
    it(`refuses Host: ${host} on the control API and the inspector (403)`, async () => {
      for (const [method, path] of [
        ['GET', '/__sandbox/keys'],
        ['POST', '/__sandbox/reset'],
        ['GET', '/__sandbox/'],
        ['POST', '/__sandbox/keys'],
      ] as const) {
        const res = await httpCall(origin, method, path, { headers: { host } });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.text).not.toContain('ak_');
      }
    });
  }

  it('answers Host: localhost, 127.0.0.1 and [::1] with or without a port', async () => {
    const port = new URL(origin).port;
    for (const host of ['localhost', `localhost:${port}`, '127.0.0.1', `127.0.0.1:${port}`, '[::1]', `[::1]:${port}`]) {
      expect((await httpCall(origin, 'GET', '/__sandbox/clock', { headers: { host } })).status, host).toBe(200);
    }
  });

  it('refuses a hostile Origin even with a loopback Host', async () => {
    for (const o of ['http://127.attacker.example', 'http://evil.example', 'null']) {
      expect((await httpCall(origin, 'POST', '/__sandbox/reset', { headers: { origin: o } })).status, o).toBe(403);
    }
  });
});

describe('HEAD and OPTIONS', () => {
  it('HEAD on a GET endpoint answers as the GET would, without a body, and counts like it', async () => {
    const auth = { authorization: `Bearer ${key}` };
    const before = sandbox.findRequests().length;
    const get = await httpCall(origin, 'GET', '/api/v1/ext/agents', { headers: auth });
    const head = await httpCall(origin, 'HEAD', '/api/v1/ext/agents', { headers: auth });
    expect(head.status).toBe(get.status);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(Number(head.headers['x-ratelimit-remaining'])).toBe(Number(get.headers['x-ratelimit-remaining']) - 1);
    const journal = sandbox.findRequests();
    expect(journal.length).toBe(before + 2);
    expect(journal.at(-1)).toMatchObject({ method: 'HEAD', status: 200 });
  });

  it('a non-preflight OPTIONS (no Origin) carries the X-RateLimit-* headers', async () => {
    const res = await httpCall(origin, 'OPTIONS', '/api/v1/ext/agents', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
    expect(res.headers['x-ratelimit-remaining']).toBeDefined();
    expect(res.headers['x-ratelimit-reset']).toBeDefined();
    expect(res.json).toHaveProperty('error.code');
  });

  it('a CORS preflight is still answered by CORS (204, no rate-limit headers needed)', async () => {
    const res = await httpCall(origin, 'OPTIONS', '/api/v1/ext/agents', {
      headers: { origin: 'http://app.example', 'access-control-request-method': 'GET' },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });
});
