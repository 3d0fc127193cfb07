/**
 * The CLI's start (issue 16): the first answer needs neither zod (every schema is built on first use, and the CLI's
 * build requires zod on demand) nor msw (the server answers from the core). What a start loads is traced in the child
 * itself (test/support/load-trace.mjs), not timed.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { CLI, ensureBuilt } from '../support/built.js';
import { DEFAULT_SEED, generateDefaultFixtures } from '../../src/model/default-fixtures.js';

beforeAll(ensureBuilt, 120_000);

const TRACE = fileURLToPath(new URL('../support/load-trace.mjs', import.meta.url));
/** The Pro account's admin key of the default fixtures. */
const KEY = generateDefaultFixtures(DEFAULT_SEED).keys.find((k) => k.id === 'key_demo_admin')?.key ?? '';
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** `BUILTIN <name>` for each of node's own modules that this runtime has loaded when a script's first line runs. */
function runtimeBuiltins(): Set<string> {
  const script = `for (const m of process.moduleLoadList) if (m.startsWith('NativeModule ')) console.log('BUILTIN ' + m.slice(13))`;
  return new Set(execFileSync(process.execPath, ['--import', TRACE, '-e', script], { encoding: 'utf8' }).split('\n'));
}

/** Starts the CLI under the trace; resolves with its URL and a getter of the trace so far. */
function startTraced(args: string[]) {
  const child = spawn(process.execPath, ['--import', TRACE, CLI, '--port', '0', '--quiet', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let trace = '';
  child.stderr.on('data', (d: Buffer) => (trace += d.toString()));
  const url = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.on('close', () => reject(new Error(`exited before its URL: ${trace}`)));
  });
  return { url, trace: () => trace };
}

/** The modules loaded before the first request, from the trace. */
function loadedBeforeFirstRequest(trace: string): string[] {
  const [before = ''] = trace.split('FIRST-REQUEST\n');
  return before.split('\n').filter((line) => line.startsWith('LOAD '));
}

it('answers its first request without loading zod or msw', async () => {
  const cli = startTraced([]);
  const res = await fetch(`${await cli.url}/ext/agents`, { headers: { authorization: `Bearer ${KEY}` } });
  expect(res.status).toBe(200);
  await res.text();
  const trace = cli.trace();
  expect(trace).toContain('FIRST-REQUEST');
  const loaded = loadedBeforeFirstRequest(trace);
  expect(loaded.some((l) => l.includes('/dist/cli.js'))).toBe(true); // the trace sees the CLI's own modules
  expect(loaded.filter((l) => /\bzod\b|[/@]msw|@mswjs/.test(l))).toEqual([]);
});

it("answers its first request without faker's code or any CommonJS module (the default seed's agents are prebuilt)", async () => {
  const cli = startTraced([]);
  const res = await fetch(`${await cli.url}/ext/agents`, { headers: { authorization: `Bearer ${KEY}` } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: { id: string; name: string }[] };
  const fixtures = generateDefaultFixtures(DEFAULT_SEED);
  expect(body.data.map((a) => a.name)).toEqual(fixtures.agents.slice(0, body.data.length).map((a) => a.name));
  const loaded = loadedBeforeFirstRequest(cli.trace());
  expect(loaded.filter((l) => /faker|^LOAD cjs:|node_modules/.test(l))).toEqual([]);
  // Node's web crypto (the key index's secret comes from the random device) and CommonJS lexer stay unloaded too,
  // beyond what this runtime loads for any script (Node 22 loads its crypto modules at start).
  const builtins = cli.trace().split('FIRST-REQUEST\n')[0]?.split('\n') ?? [];
  expect(builtins).toContain('BUILTIN http');
  const bare = runtimeBuiltins();
  expect(builtins.filter((l) => /crypto|cjs-module-lexer/.test(l) && !bare.has(l))).toEqual([]);
  // node's built-ins come from process.getBuiltinModule, not through the ES-module loader and its facades
  // (scripts/esbuild-builtins.ts).
  expect(loaded.filter((l) => l.startsWith('LOAD node:'))).toEqual([]);
  // Nor bundled into the CLI's own chunks that the start loads (esbuild marks each bundled package's code).
  const own = loaded.filter((l) => l.startsWith('LOAD file:')).map((l) => fileURLToPath(l.slice('LOAD '.length)));
  for (const file of own) expect(readFileSync(file, 'utf8'), file).not.toContain('// node_modules/@faker-js/faker');
});

it("loads faker on demand for another seed, and answers with that seed's catalog", async () => {
  const cli = startTraced(['--seed', '7']);
  const seven = generateDefaultFixtures(7);
  const key = seven.keys.find((k) => k.id === 'key_demo_admin')?.key ?? '';
  const res = await fetch(`${await cli.url}/ext/agents`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: { id: string }[] };
  expect(body.data.map((a) => a.id)).toEqual(seven.agents.slice(0, body.data.length).map((a) => a.id));
  expect(loadedBeforeFirstRequest(cli.trace()).some((l) => l.includes('@faker-js/faker/locale/base'))).toBe(true);
});

it('still validates the first POST with zod, loaded then: same 400 as ever', async () => {
  const cli = startTraced([]);
  const res = await fetch(`${await cli.url}/ext/tasks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ agent_id: 7 }),
  });
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({
    error: { code: 'invalid_request', message: "Invalid field 'agent_id': must be a string." },
  });
  expect(cli.trace()).toMatch(/LOAD cjs:zod /);
});

it("draws the library's default fixtures, seed by seed (its faker carries only the en definitions it uses)", () => {
  for (const seed of [DEFAULT_SEED, 7, 90210]) {
    const printed = execFileSync(process.execPath, [CLI, 'fixtures', 'export', '--seed', String(seed)], {
      encoding: 'utf8',
    });
    expect(printed).toBe(`${JSON.stringify(generateDefaultFixtures(seed), null, 2)}\n`);
  }
});
