/**
 * The inspector's data without a browser: the live read polled with ETags, request filters and detail, the charts'
 * series on the sandbox clock, the bundled files in dist/, and webhook endpoints and deliveries kept by snapshots and
 * `--state`.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/index.js';
import type { RunningServer } from '../../src/sandbox-types.js';
import { main, type CliRun } from '../../src/cli/main.js';
import { timeline } from '../../src/server/inspector/timeline.js';
import { CLI, ROOT, ensureBuilt } from '../support/built.js';
import { tempDir } from '../support/temp.js';

const NOW = '2026-11-22T09:30:00Z';

async function busySandbox(): Promise<{
  sandbox: Sandbox;
  server: RunningServer;
  api: (path: string, key: string, body?: unknown) => Promise<Response>;
}> {
  const sandbox = createSandbox({ fixtures: 'marketplace', clock: 'manual', now: NOW });
  const server = await sandbox.listen({ port: 0 });
  const api = (path: string, key: string, body?: unknown) =>
    fetch(`${server.url}/api/v1${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
  const agents = (await (await api('/ext/agents?limit=2', 'ak_demo_acme_admin')).json()).data;
  for (let i = 0; i < 4; i++) {
    sandbox.clock.advance('3s');
    await api('/ext/tasks', 'ak_demo_acme_admin', { agent_id: agents[i % 2].id, description: `Task ${i}` });
    await api('/ext/usage', 'ak_demo_acme_read_agents');
  }
  sandbox.clock.advance('20s');
  return { sandbox, server, api };
}

describe('GET /__sandbox/inspector/live', () => {
  let ctx: Awaited<ReturnType<typeof busySandbox>>;
  const live = (query = '', headers: Record<string, string> = {}) =>
    fetch(`${ctx.server.url}/__sandbox/inspector/live${query}`, { headers });
  beforeAll(async () => {
    ctx = await busySandbox();
  });
  afterAll(() => ctx.server.close());

  it('answers 304 to a poll that already has the answer, and a new ETag once something happened', async () => {
    const first = await live();
    const tag = first.headers.get('etag')!;
    expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect((await live('', { 'If-None-Match': tag })).status).toBe(304);
    await ctx.api('/ext/usage', 'ak_demo_acme_admin');
    const after = await live('', { 'If-None-Match': tag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(tag);
  });

  it('answers an unchanged poll from a mark of the state, without building the answer; a change anywhere gives a new tag', async () => {
    const own = await busySandbox();
    const poll = (headers: Record<string, string> = {}) =>
      fetch(`${own.server.url}/__sandbox/inspector/live`, { headers });
    const asked: unknown[] = [];
    const overview = own.sandbox.overview.bind(own.sandbox);
    own.sandbox.overview = (options) => (asked.push(options), overview(options));
    try {
      const created = own.sandbox.requests.find((e) => e.status === 201)!;
      const task = (await (await own.api('/ext/tasks', 'ak_demo_acme_admin', JSON.parse(created.request.body))).json())
        .id as string;
      let tag = (await poll()).headers.get('etag')!;
      asked.length = 0;
      expect((await poll({ 'If-None-Match': tag })).status).toBe(304);
      expect(asked).toEqual([{ tasks: 0, requests: 0 }]);
      // Changes made in-process, over the control API and through the API each change the tag.
      const changes: [string, () => unknown][] = [
        ['the manual clock', () => own.sandbox.clock.advance('1ms')],
        ['a key revoked in-process', () => own.sandbox.keys.revoke('key_initech_read_agents')],
        ['a balance set', () => own.sandbox.accounts.update('acc_hobby', { balanceUsd: 3 })],
        ['a scenario', () => own.sandbox.useScenario('latency', { accountId: 'acc_hobby' })],
        ['a task failed', () => own.sandbox.tasks.fail(task)],
        ['a control request', () => fetch(`${own.server.url}/__sandbox/scenarios?scope=sandbox`, { method: 'DELETE' })],
        ['an API request', () => own.api('/ext/agents?limit=1', 'ak_demo_acme_admin')],
        ['the journal cleared', () => own.sandbox.clearRequests()],
      ];
      for (const [what, change] of changes) {
        await change();
        const next = await poll({ 'If-None-Match': tag });
        expect(next.status, what).toBe(200);
        tag = next.headers.get('etag')!;
        expect((await poll({ 'If-None-Match': tag })).status, what).toBe(304);
      }
    } finally {
      await own.server.close();
    }
  });

  it('answers 304 with a real clock too, while nothing happens', async () => {
    const sandbox = createSandbox({ fixtures: 'marketplace' });
    const server = await sandbox.listen({ port: 0 });
    try {
      const first = await fetch(`${server.url}/__sandbox/inspector/live`);
      const again = await fetch(`${server.url}/__sandbox/inspector/live`, {
        headers: { 'If-None-Match': first.headers.get('etag')! },
      });
      expect(again.status).toBe(304);
    } finally {
      await server.close();
    }
  });

  it('filters requests by status class, code, key, account and a part of the path, newest first, without bodies', async () => {
    const read = async (q: string) =>
      (await (await live(q)).json()).requests as { status: number; key_id: string; path: string; request?: unknown }[];
    expect((await read('?status=4xx')).map((r) => r.status)).toEqual([403, 403, 403, 403]);
    expect((await read('?status=201')).length).toBe(4);
    expect((await read('?key_id=key_acme_read_agents')).every((r) => r.key_id === 'key_acme_read_agents')).toBe(true);
    expect((await read('?account_id=acc_globex')).length).toBe(0);
    const tasks = await read('?path=EXT/TASKS');
    expect(tasks.length).toBe(4);
    expect(tasks.every((r) => r.request === undefined)).toBe(true);
    const bad = await live('?status=abc');
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe('invalid_request');
  });

  it('gives one request in full by its seq (or id), and a 404 in the error shape for an unknown one', async () => {
    const newest = (await (await live()).json()).requests[0];
    const one = await (await fetch(`${ctx.server.url}/__sandbox/inspector/requests/${newest.seq}`)).json();
    expect(one).toMatchObject({ seq: newest.seq, method: 'GET', path: '/api/v1/ext/usage' });
    const missing = await fetch(`${ctx.server.url}/__sandbox/inspector/requests/req_nope`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe('not_found');
  });

  it('gives the charts only when asked, the same series for the same requests on a manual clock', async () => {
    expect((await (await live()).json()).timeline).toBeNull();
    const a = (await (await live('?charts=1')).json()).timeline;
    const again = await busySandbox();
    const b = (await (await fetch(`${again.server.url}/__sandbox/inspector/live?charts=1`)).json()).timeline;
    await again.server.close();
    // The first sandbox saw one more request (the ETag test); compare the charts that request does not touch.
    expect(b.x).toEqual(a.x);
    expect(b.tasks).toEqual(a.tasks);
    expect(b.money).toEqual(a.money);
    expect(a.x.at(-1)).toBe(ctx.sandbox.clock.now() / 1000);
  });
});

describe('the charts series', () => {
  it('counts requests per second by status, the rate window in % of RPM, holds and task states on the sandbox clock', () => {
    const now = Date.parse('2026-01-01T00:01:00Z');
    const at = (s: number) => new Date(now - s * 1000).toISOString();
    const t = timeline({
      now,
      requests: [
        { time: at(5), status: 200, accountId: 'acc_a' },
        { time: at(5), status: 429, accountId: 'acc_a' },
        { time: at(1), status: 404, accountId: 'acc_a' },
        { time: at(1), status: 503, accountId: null },
      ],
      tasks: [
        {
          account_id: 'acc_a',
          status: 'completed',
          created_at: at(30),
          started_at: at(29),
          completed_at: at(20),
          usage: { cost_usd: 0.5 },
        },
        {
          account_id: 'acc_a',
          status: 'running',
          created_at: at(10),
          started_at: at(9),
          completed_at: null,
          usage: { cost_usd: 0 },
        },
      ],
      accounts: [{ id: 'acc_a', balance_usd: 10, held_usd: 0.25, limits: { rpm: 60 } }],
    });
    expect(t.step).toBe(1);
    const last = t.x.length - 1;
    expect(t.x[last]).toBe(now / 1000);
    expect(t.requests['2xx'][last - 5]).toBe(1);
    expect(t.requests['429'][last - 5]).toBe(1);
    expect(t.requests['4xx'][last - 1]).toBe(1);
    expect(t.requests['5xx'][last - 1]).toBe(1);
    expect(t.rate.acc_a![last]).toBe(5); // 3 of 60
    expect(t.money.acc_a!.balance[last]).toBe(10);
    expect(t.money.acc_a!.balance[last - 25]).toBe(10.5); // before the completed task was charged
    expect(t.money.acc_a!.held[last]).toBe(0.25);
    expect(t.money.acc_a!.held[last - 25]).toBe(0.5);
    expect(t.tasks.running[last]).toBe(1);
    expect(t.tasks.completed[last]).toBe(1);
    expect(t.tasks.queued[last - 30]).toBe(1);
  });
});

describe('webhook endpoints and deliveries in snapshots and --state', () => {
  it('a snapshot carries endpoints with url and the delivery journal; restore brings them back', async () => {
    const sandbox = createSandbox({ fixtures: 'marketplace', clock: 'manual', now: NOW });
    const endpoint = sandbox.webhooks.add({ accountId: 'acc_acme', url: 'http://127.0.0.1:9/hook' });
    sandbox.webhooks.add({ accountId: 'acc_acme', callback: () => undefined });
    const server = await sandbox.listen({ port: 0 });
    const headers = { Authorization: 'Bearer ak_demo_acme_admin', 'Content-Type': 'application/json' };
    const agent = (await (await fetch(`${server.url}/api/v1/ext/agents?limit=1`, { headers })).json()).data[0].id;
    const created = await fetch(`${server.url}/api/v1/ext/tasks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ agent_id: agent, description: 'Hi' }),
    });
    await server.close();
    expect(created.status).toBe(201);
    const snap = JSON.parse(JSON.stringify(sandbox.snapshot()));
    expect(snap.webhooks.endpoints).toEqual([
      expect.objectContaining({ id: endpoint.id, url: 'http://127.0.0.1:9/hook', secret: endpoint.secret }),
    ]);
    expect(snap.webhooks.deliveries.map((d: { endpointId: string }) => d.endpointId)).toEqual([endpoint.id]);
    const other = createSandbox({ fixtures: 'marketplace', clock: 'manual' });
    other.restore(snap);
    expect(other.webhooks.list()).toEqual([endpoint]);
    expect(other.webhooks.deliveries().map((d) => [d.id, d.eventType, d.status])).toEqual(
      sandbox.webhooks
        .deliveries()
        .filter((d) => d.endpointId === endpoint.id)
        .map((d) => [d.id, d.eventType, d.status]),
    );
    expect(other.snapshot().webhooks!.endpoints).toEqual(snap.webhooks.endpoints);
    expect(other.snapshot().webhooks!.counters).toEqual(snap.webhooks.counters);
  });

  it('refuses a snapshot whose webhook endpoint names no account, and changes nothing', () => {
    const sandbox = createSandbox({ fixtures: 'marketplace' });
    const snap = sandbox.snapshot();
    snap.webhooks = {
      ...snap.webhooks!,
      endpoints: [
        { id: 'ep_x', accountId: 'acc_nope', url: 'http://127.0.0.1:9/', secret: 'whsec_AAAA', createdAt: 0 },
      ],
    };
    expect(() => sandbox.restore(snap)).toThrow(/webhooks\.endpoints\.0\.accountId.*acc_nope/);
    expect(sandbox.webhooks.list()).toEqual([]);
  });

  it('--state keeps the endpoints and deliveries across a restart (the inspector shows the same)', async () => {
    const file = join(tempDir('aws-insp-'), 'demo.json');
    const io = { stdout: () => {}, stderr: () => {}, env: {} };
    const first: CliRun = (await main(
      ['--port', '0', '-q', '--fixtures', 'marketplace', '--clock', 'manual', '--state', file],
      io,
    ))!;
    const added = await (
      await fetch(`${first.server.url}/__sandbox/accounts/acc_acme/webhooks`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: 'http://127.0.0.1:9/hook' }),
      })
    ).json();
    await fetch(`${first.server.url}/__sandbox/webhooks/test`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ endpoint_id: added.id }),
    });
    const shown = await (await fetch(`${first.server.url}/__sandbox/inspector/live`)).json();
    await first.stop();
    expect(JSON.parse(readFileSync(file, 'utf8')).webhooks.endpoints[0].id).toBe(added.id);
    const second: CliRun = (await main(
      ['--port', '0', '-q', '--fixtures', 'marketplace', '--clock', 'manual', '--state', file],
      io,
    ))!;
    const again = await (await fetch(`${second.server.url}/__sandbox/inspector/live`)).json();
    await second.stop();
    expect(again.webhooks).toEqual(shown.webhooks);
    expect(again.deliveries.map((d: { id: string; attempts: unknown[] }) => [d.id, d.attempts.length])).toEqual(
      shown.deliveries.map((d: { id: string; attempts: unknown[] }) => [d.id, d.attempts.length]),
    );
  });
});

describe('the built package', () => {
  it('serves the inspector files from the bundle: the built CLI, started from another directory, gives the same bytes', async () => {
    ensureBuilt();
    const child = spawn(process.execPath, [CLI, '--port', '0', '--quiet'], {
      cwd: tmpdir(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const base = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('\n')) resolve(out.trim());
        });
        child.on('exit', (code) => reject(new Error(`the CLI exited with ${code}`)));
      });
      const origin = new URL(base).origin;
      const page = await fetch(`${origin}/__sandbox/`);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await page.text()).toContain('id="scenario-catalog"');
      const own = readdirSync(join(ROOT, 'src/server/inspector')).filter((f) => /\.(js|css)$/.test(f));
      for (const [file, source] of [
        ...own.map((f) => [f, `src/server/inspector/${f}`]),
        ['uplot.js', 'node_modules/uplot/dist/uPlot.iife.min.js'],
      ]) {
        expect(await (await fetch(`${origin}/__sandbox/inspector/${file}`)).text()).toBe(
          readFileSync(join(ROOT, source!), 'utf8'),
        );
      }
    } finally {
      child.kill();
    }
  });
});
