import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, ERRORS, type Sandbox } from '../../src/index.js';
import type { RunningServer } from '../../src/sandbox-types.js';

const INSPECTOR_DIR = join(import.meta.dirname, '..', '..', 'src', 'server', 'inspector');

describe('GET /__sandbox/overview and the inspector page (no browser)', () => {
  let sandbox: Sandbox;
  let server: RunningServer;
  beforeAll(async () => {
    sandbox = createSandbox({ fixtures: 'marketplace', clock: 'manual' });
    server = await sandbox.listen({ port: 0 });
  });
  afterAll(() => server.close());
  const api = (path: string, key = 'ak_demo_acme_admin', init: RequestInit = {}) =>
    fetch(`${server.url}/api/v1${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    });

  it('serves the page as HTML with a content security policy', async () => {
    const res = await fetch(`${server.url}/__sandbox/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await res.text();
    expect(html).toContain('"rate-limited"');
    expect(html).not.toContain('__SCENARIOS__');
    // No inline script: the policy allows scripts from the sandbox only, and the page's own script parses.
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(
      [...html.matchAll(/<script([^>]*)>/g)].every(([, attrs]) => /src=|type="application\/json"/.test(attrs!)),
    ).toBe(true);
    // The page's scripts (uplot.js, from the package, aside) and every module they import: each is served as
    // JavaScript and parses (`node --check`: compiled, not run), and together they are the .js files of the folder.
    const served = new Set<string>();
    const queue = [...html.matchAll(/src="inspector\/([\w-]+\.js)"/g)]
      .map((m) => m[1]!)
      .filter((f) => f !== 'uplot.js');
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      if (served.has(file)) continue;
      served.add(file);
      const js = await fetch(`${server.url}/__sandbox/inspector/${file}`);
      expect(js.status, file).toBe(200);
      expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      const script = await js.text();
      const check = spawnSync(process.execPath, ['--input-type=module', '--check'], {
        input: script,
        encoding: 'utf8',
      });
      expect(check.status, `${file}: ${check.stderr}`).toBe(0);
      for (const m of script.matchAll(/^import .* from '\.\/([\w-]+\.js)';$/gm)) queue.push(m[1]!);
    }
    expect([...served].sort()).toEqual(
      readdirSync(INSPECTOR_DIR)
        .filter((f) => f.endsWith('.js'))
        .sort(),
    );
  });

  it('gives accounts with their rate window, keys, agents, tasks and requests newest first', async () => {
    const agents = (await (await api('/ext/agents?limit=2')).json()).data;
    const task = await (
      await api('/ext/tasks', undefined, {
        method: 'POST',
        body: JSON.stringify({ agent_id: agents[0].id, description: 'Hello' }),
      })
    ).json();
    await api('/ext/usage', 'ak_demo_acme_read_agents');
    const o = await (await fetch(`${server.url}/__sandbox/overview`)).json();
    expect(o.clock).toBe('manual');
    const acme = o.accounts.find((a: { id: string }) => a.id === 'acc_acme');
    expect(acme).toMatchObject({
      plan: 'pro',
      limits: { rpm: 300, tpm: 150000 },
      rate_window: { requests: 3, remaining: 297 },
    });
    expect(acme.held_usd).toBeGreaterThan(0);
    expect(o.keys.find((k: { id: string }) => k.id === 'key_acme_revoked')).toMatchObject({
      revoked: true,
      scopes: ['admin'],
    });
    expect(o.agents).toHaveLength(36);
    expect(o.tasks[0]).toMatchObject({ id: task.id, status: 'queued', account_id: 'acc_acme' });
    expect(o.requests.map((r: { status: number; code: string | null }) => [r.status, r.code])).toEqual([
      [403, 'insufficient_scope'],
      [201, null],
      [200, null],
    ]);
  });

  it('bounds the lists with ?tasks= and ?requests=', async () => {
    const o = await (await fetch(`${server.url}/__sandbox/overview?requests=1&tasks=0`)).json();
    expect(o.requests).toHaveLength(1);
    expect(o.tasks).toHaveLength(0);
    expect(o.task_count).toBe(1);
  });
});

describe('the inspector with a control token', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await createSandbox().listen({ port: 0, controlToken: 'sekret-token' });
  });
  afterAll(() => server.close());

  it('asks for the token for the page and the overview, takes it as ?token= or X-Sandbox-Token', async () => {
    const denied = await fetch(`${server.url}/__sandbox/overview`);
    expect(denied.status).toBe(ERRORS.invalid_api_key.status);
    expect((await fetch(`${server.url}/__sandbox/?token=sekret-token`)).status).toBe(200);
    expect(
      (await fetch(`${server.url}/__sandbox/overview`, { headers: { 'X-Sandbox-Token': 'sekret-token' } })).status,
    ).toBe(200);
  });

  it('serves the OpenAPI document without the token', async () => {
    expect((await fetch(`${server.url}/__sandbox/openapi.json`)).status).toBe(200);
  });
});
