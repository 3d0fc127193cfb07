/**
 * `agent-work-sandbox/fetch`: the sandbox without msw (issue 16, a faster in-process start). It answers through
 * `sandbox.fetch` exactly as the main entry does, has no msw handlers, and its build loads no msw module unless a user
 * handler of its own is asked (the load is traced in a child process, ESM and CommonJS).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { createSandbox as createFetchSandbox, type FetchSandbox } from '../../src/fetch.js';
import { createSandbox } from '../../src/index.js';
import { handlers } from './fixtures-handlers/analytics.mjs';
import { keyOf } from '../support/doors.js';
import { ensureBuilt, ROOT } from '../support/built.js';

const BASE = 'https://api.example.com/api/v1';
const TRACE = fileURLToPath(new URL('../support/load-trace.mjs', import.meta.url));

/** What a sequence of requests answered: status, headers and body of each, as text. */
async function answers(sandbox: FetchSandbox): Promise<string[]> {
  const key = keyOf(sandbox);
  const auth = { Authorization: `Bearer ${key}` };
  const agent = sandbox.snapshot().agents[0]!.id;
  const out: string[] = [];
  const read = async (res: Response) =>
    out.push(`${res.status} ${JSON.stringify([...res.headers])} ${await res.text()}`);
  await read(await sandbox.fetch(`${BASE}/ext/agents?limit=3`, { headers: auth }));
  const created = await sandbox.fetch(`${BASE}/ext/tasks`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ agent_id: agent, description: 'Summarize the report.' }),
  });
  const id = ((await created.clone().json()) as { id: string }).id;
  await read(created);
  sandbox.clock.advance('10m');
  await read(await sandbox.fetch(`${BASE}/ext/tasks/${id}`, { headers: auth }));
  await read(await sandbox.fetch(`${BASE}/ext/usage`, { headers: auth }));
  await read(await sandbox.fetch(`${BASE}/ext/agents`));
  await read(await sandbox.fetch(`${BASE}/ext/tasks/task_nope`, { headers: auth }));
  return out;
}

/** The modules a child process loads while it runs `code` (test/support/load-trace.mjs), and what it printed. */
function traced(code: string, type: 'module' | 'commonjs'): { loaded: string[]; printed: string } {
  const child = spawnSync(process.execPath, ['--import', TRACE, `--input-type=${type}`, '-e', code], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`the child exited with ${child.status}: ${child.stderr}`);
  return { loaded: child.stderr.split('\n').filter((l) => l.startsWith('LOAD ')), printed: child.stdout };
}

const ASK = (entry: string, key: string) => `
  const { createSandbox } = ${entry};
  const sandbox = createSandbox();
  sandbox.fetch('http://localhost/api/v1/ext/agents', { headers: { authorization: 'Bearer ${key}' } })
    .then((res) => console.log(res.status));
`;
const loadsMsw = (loaded: string[]) => loaded.some((l) => /[\\/]node_modules[\\/]msw[\\/]|cjs:msw\b/.test(l));

describe('agent-work-sandbox/fetch', () => {
  it('answers through sandbox.fetch byte for byte as the main entry does', async () => {
    const plain = await answers(createFetchSandbox({ clock: 'manual' }));
    const main = await answers(createSandbox({ clock: 'manual' }));
    expect(plain).toHaveLength(6);
    expect(plain).toEqual(main);
    expect(plain[0]).toMatch(/^200 /);
    expect(plain[1]).toMatch(/^201 /);
  });

  it('has no msw handlers, in its type and at run time', () => {
    const sandbox = createFetchSandbox();
    expect('handlers' in sandbox).toBe(false);
    expectTypeOf<FetchSandbox>().not.toHaveProperty('handlers');
    expectTypeOf<FetchSandbox>().toHaveProperty('fetch');
  });

  it("still serves the user's own handlers behind the API's routes (msw loaded when one is asked)", async () => {
    const sandbox = createFetchSandbox({ clock: 'manual', handlers });
    const res = await sandbox.fetch(`${BASE}/ext/analytics`, {
      headers: { Authorization: `Bearer ${keyOf(sandbox)}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ account_id: 'acc_demo', p50_ms: 840 });
    expect(res.headers.get('x-ratelimit-limit')).toBe('300');
  });

  it('serves over HTTP with listen(), as the main entry does', async () => {
    const sandbox = createFetchSandbox();
    const server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
    try {
      const res = await fetch(`${server.url}/api/v1/ext/agents?limit=1`, {
        headers: { Authorization: `Bearer ${keyOf(sandbox)}` },
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: unknown[] }).data).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  describe('the built entry', () => {
    let key = '';
    beforeAll(() => {
      ensureBuilt();
      key = keyOf(createSandbox());
    }, 120_000);

    it.each([
      ['ES module', "await import('./dist/fetch.js')", 'module'],
      ['CommonJS', "require('./dist/fetch.cjs')", 'commonjs'],
    ] as const)('loads no msw module (%s) and answers its first request', (_name, entry, type) => {
      const { loaded, printed } = traced(ASK(entry, key), type);
      expect(printed.trim()).toBe('200');
      expect(loaded.some((l) => l.includes('dist/fetch.'))).toBe(true);
      expect(loadsMsw(loaded)).toBe(false);
    });

    it('where the main entry does load msw (the check above can fail)', () => {
      const { loaded, printed } = traced(ASK("await import('./dist/index.js')", key), 'module');
      expect(printed.trim()).toBe('200');
      expect(loadsMsw(loaded)).toBe(true);
    });
  });
});
