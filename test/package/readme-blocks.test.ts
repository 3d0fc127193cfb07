/**
 * Every code block of the README runs, as a reader would run it, so that the README cannot drift from the package:
 * - the Set up block: exactly the two lines `scripts/fresh-clone.mjs` runs on a fresh clone (CI runs that script);
 * - the server block (`npx agent-work-sandbox`) starts the built CLI, and the curl block runs against it (real curl);
 * - the Vitest blocks run in a child Vitest, in a project whose `agent-work-sandbox` is this package's built dist/,
 *   and a file that uses msw also checks that an unmocked request fails instead of reaching the network;
 * - the Jest config loads in a `"type": "module"` project and in a CommonJS one, and names a preset that resolves.
 * A block that none of these recognises fails the test. CI's msw 3 leg runs this file with msw 3 (.ci/matrix.sh).
 */
import { execFile, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, ROOT } from '../support/built.js';

interface Block {
  lang: string;
  code: string;
  heading: string;
}

/** The fenced code blocks of a Markdown text, each with the heading it sits under. */
function codeBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  let heading = '';
  for (const m of markdown.matchAll(/^(#{1,6} .*)$|^```(\w*)\n([\s\S]*?)^```$/gm)) {
    if (m[1]) heading = m[1].replace(/^#+ /, '');
    else blocks.push({ lang: m[2] ?? '', code: m[3] ?? '', heading });
  }
  return blocks;
}

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const BLOCKS = codeBlocks(README);
const KINDS = {
  setup: (b: Block) => b.lang === 'sh' && b.heading === 'Set up',
  server: (b: Block) => b.lang === 'sh' && /^npx agent-work-sandbox\b/.test(b.code),
  curl: (b: Block) => b.lang === 'sh' && /^curl /m.test(b.code),
  vitest: (b: Block) => b.lang === 'ts' && b.code.includes("from 'vitest'"),
  jestConfig: (b: Block) => b.lang === 'js' && /^\/\/ jest\.config\.\w+/.test(b.code),
};
const of = (kind: keyof typeof KINDS) => BLOCKS.filter(KINDS[kind]);
const one = (kind: keyof typeof KINDS) => {
  const found = of(kind);
  expect(found, `README blocks of kind ${kind}`).toHaveLength(1);
  return found[0]!;
};
/** Command lines of a shell block: comments dropped, `\` continuations joined. */
const commandLines = (code: string) =>
  code
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
const run = promisify(execFile);
const CHILD_ENV: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
for (const name of ['PORT', 'AGENT_WORK_SANDBOX_PORT', 'AGENT_WORK_SANDBOX_SEED', 'AGENT_WORK_SANDBOX_HOST'])
  delete CHILD_ENV[name];

const HAS_CURL = (process.env.PATH ?? '').split(delimiter).some((dir) => existsSync(join(dir, 'curl')));

// The child Vitest shares the machine with the rest of the suite: room for a slow run.
const CHILD_MS = 150_000;

let project = '';

/** A consumer project: every package of ours linked into its node_modules, and this package as an installed one. */
function makeProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'aws-readme-'));
  const modules = join(dir, 'node_modules');
  mkdirSync(modules);
  for (const name of readdirSync(join(ROOT, 'node_modules')))
    if (name !== 'agent-work-sandbox') symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
  symlinkSync(ROOT, join(modules, 'agent-work-sandbox'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'readme-reader', private: true, type: 'module' }));
  return dir;
}

beforeAll(() => {
  ensureBuilt();
  project = makeProject();
});
afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe("the README's code blocks", () => {
  it('are each of a kind this file runs', () => {
    const unknown = BLOCKS.filter((b) => !Object.values(KINDS).some((is) => is(b)));
    expect(unknown.map((b) => `${b.heading}: ${b.code.split('\n')[0]}`)).toEqual([]);
  });

  it('Set up: two lines, install then run, install then test (scripts/fresh-clone.mjs runs them)', () => {
    expect(commandLines(one('setup').code)).toEqual(['npm install && npm start', 'npm install && npm test']);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.scripts.start).toContain('dist/cli.js');
    expect(typeof pkg.scripts.test).toBe('string');
  });

  // The curl block is run by curl itself; a machine without curl cannot run it (CI's has one).
  it.skipIf(!HAS_CURL)(
    'curl: the server block starts the CLI, and every curl line gets a 2xx from it',
    async () => {
      const [start, ...rest] = commandLines(one('server').code);
      expect(rest).toEqual([]);
      const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
      expect(pkg.bin['agent-work-sandbox']).toBe('./dist/cli.js'); // what `npx agent-work-sandbox` runs
      const flags = start!
        .replace(/^npx agent-work-sandbox\s*/, '')
        .split(/\s+/)
        .filter(Boolean);
      const server = spawn(process.execPath, [CLI, ...flags, '--port', '0'], { env: CHILD_ENV });
      try {
        const banner = await new Promise<string>((resolve, reject) => {
          let out = '';
          server.stdout.on('data', (d: Buffer) => {
            out += d.toString();
            if (/Magic keys/.test(out)) resolve(out);
          });
          server.on('exit', (code) => reject(new Error(`the CLI exited (${code}): ${out}`)));
        });
        const url = /Base URL\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(banner)![1]!;
        const curl = one('curl').code;
        const key = /^KEY=(\S+)/m.exec(curl)?.[1];
        expect(banner, 'the banner lists the key the README uses').toContain(` ${key} `);
        const script = `set -euo pipefail\n${curl.replaceAll('http://127.0.0.1:4747', url)}`;
        const { stdout } = await run('bash', ['-c', script], { env: CHILD_ENV, timeout: 15_000 });
        const statuses = [...stdout.matchAll(/HTTP\/[\d.]+ (\d{3}) /g)].map((m) => Number(m[1]));
        expect(statuses).toHaveLength(commandLines(curl).filter((l) => l.startsWith('curl ')).length);
        expect(
          statuses.every((s) => s >= 200 && s < 300),
          `statuses ${statuses.join(', ')}\n${stdout}`,
        ).toBe(true);
      } finally {
        server.kill('SIGTERM');
      }
    },
    30_000,
  );

  it(
    'Vitest: every block passes in a child Vitest, and an msw one lets no unmocked request out',
    async () => {
      const files = of('vitest').map((b, i) => {
        const name = /^\/\/ (\S+\.test\.ts)/.exec(b.code)?.[1] ?? `block-${i}.test.ts`;
        const titles = [...b.code.matchAll(/^it\('([^']+)'/gm)].map((m) => m[1]!);
        const usesMsw = b.code.includes('setupSandbox') || b.code.includes('setupServer');
        writeFileSync(join(project, name), usesMsw ? b.code + unmockedCheck(UNMOCKED_TITLE) : b.code);
        return { name, titles: usesMsw ? [...titles, UNMOCKED_TITLE] : titles };
      });
      expect(files.length).toBeGreaterThanOrEqual(2);
      writeFileSync(join(project, 'control.test.ts'), CONTROL_BLOCK + unmockedCheck(CONTROL_TITLE));
      const statuses = await runVitest();
      const passed = [...statuses].filter(([, s]) => s.status === 'passed').map(([title]) => title);
      const failures = [...statuses].flatMap(([, s]) => s.failureMessages);
      expect(passed.filter((t) => t !== CONTROL_TITLE).sort(), failures.join('\n')).toEqual(
        files.flatMap((f) => f.titles).sort(),
      );
      // The check can fail: msw 3 ignores `onUnhandledRequest`, so there an unmocked request of the control passes.
      const mswMajor = Number(createRequire(join(ROOT, 'package.json'))('msw/package.json').version.split('.')[0]);
      expect(statuses.get(CONTROL_TITLE)?.status).toBe(mswMajor >= 3 ? 'failed' : 'passed');
    },
    CHILD_MS + 30_000,
  );

  // The declarations are built by `npx tsup` (CI's msw 3 leg builds JavaScript only, so it skips this case).
  it.skipIf(!existsSync(join(ROOT, 'dist', 'index.d.ts')))(
    'TypeScript: the ts blocks compile in a strict project that resolves the package as Node does',
    async () => {
      const dir = join(project, 'types');
      mkdirSync(dir, { recursive: true });
      BLOCKS.filter((b) => b.lang === 'ts').forEach((b, i) => writeFileSync(join(dir, `block-${i}.ts`), b.code));
      const compilerOptions = { strict: true, module: 'nodenext', target: 'es2022', noEmit: true, skipLibCheck: true };
      const config = { compilerOptions: { ...compilerOptions, lib: ['es2022', 'dom'], types: ['node'] } };
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ ...config, include: ['*.ts'] }));
      const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
      const outcome = await run(process.execPath, [tsc, '-p', dir], { env: CHILD_ENV, timeout: CHILD_MS }).catch(
        (e: Error & { stdout?: string }) => e,
      );
      expect(outcome instanceof Error ? outcome.stdout : '').toBe('');
    },
    CHILD_MS + 30_000,
  );

  it('Jest: the config loads in a "type": "module" project and in a CommonJS one, and its preset resolves', async () => {
    const block = one('jestConfig');
    const name = /^\/\/ (jest\.config\.\w+)/.exec(block.code)![1]!;
    const configs: object[] = [];
    for (const type of ['module', 'commonjs']) {
      const dir = join(project, `jest-${type}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ type }));
      writeFileSync(join(dir, name), block.code);
      configs.push((await loadConfig(join(dir, name))) as object);
    }
    expect(configs[0]).toEqual(configs[1]);
    expect(configs[0]).toEqual({ preset: 'agent-work-sandbox' });
    // Jest looks the preset up as `<preset>/jest-preset`; the consumer test runs Jest with this same preset.
    expect(createRequire(join(project, 'x.js')).resolve('agent-work-sandbox/jest-preset')).toMatch(/jest-preset\.cjs$/);
    const consumer = createRequire(import.meta.url)('./consumer/jest/jest.config.cjs') as object;
    expect(consumer).toMatchObject(configs[0]!);
  });

  it('Jest: the same config named jest.config.js would not load in a "type": "module" project (the check can fail)', async () => {
    const dir = join(project, 'jest-module-js');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(join(dir, 'jest.config.js'), one('jestConfig').code);
    await expect(loadConfig(join(dir, 'jest.config.js'))).rejects.toThrow(/module is not defined/);
  });
});

/**
 * Loads a config file as Node does for Jest, in a child process (Vitest's own loader is laxer than Node): Jest
 * require()s a config and falls back to import() for an ES module, and import() gives either kind as `default`.
 */
async function loadConfig(file: string): Promise<unknown> {
  // A script file, not `node -e`: an eval script defines `module` as a global, which would hide the error.
  const loader = join(project, 'load-config.mjs');
  writeFileSync(loader, 'const c = await import(process.argv[2]);\nconsole.log(JSON.stringify(c.default));\n');
  const { stdout } = await run(process.execPath, [loader, pathToFileURL(file).href], { env: CHILD_ENV });
  return JSON.parse(stdout);
}

interface VitestJson {
  testResults: { message: string; assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
}

const UNMOCKED_TITLE = 'an unmocked request fails instead of reaching the network';
const CONTROL_TITLE = "control: msw's setupServer with onUnhandledRequest only";
// What a README could say instead of setupSandbox: right on msw 2, wrong on msw 3.
const CONTROL_BLOCK = `import { setupServer } from 'msw/node';
import { afterAll, beforeAll } from 'vitest';
import { createSandbox } from 'agent-work-sandbox';
const server = setupServer(...createSandbox().handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
`;

/** Appended to a block that serves msw: a real server on 127.0.0.1 that would answer 200 must not be reached. */
function unmockedCheck(title: string): string {
  const helper = join(ROOT, 'test/package/consumer/unmocked.cjs');
  return `
import { createRequire as readmeCheckRequire } from 'node:module';
import { expect as readmeCheckExpect, it as readmeCheckIt } from 'vitest';
readmeCheckIt(${JSON.stringify(title)}, async () => {
  const { withRealServer } = readmeCheckRequire(import.meta.url)(${JSON.stringify(helper)});
  await withRealServer(async (url) => {
    await readmeCheckExpect(fetch(url)).rejects.toThrow();
  });
});
`;
}

/** Runs the project's test files in a child Vitest; the status of each test by its title. */
async function runVitest(): Promise<Map<string, { status: string; failureMessages: string[] }>> {
  writeFileSync(join(project, 'vitest.config.mjs'), "export default { test: { include: ['*.test.ts'] } };\n");
  const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  const args = [vitest, 'run', '--root', project, '--reporter=json', '--outputFile=result.json'];
  // A failing test makes Vitest exit 1, and the JSON report says which; no report means Vitest itself failed.
  const outcome = await run(process.execPath, args, { cwd: project, env: CHILD_ENV, timeout: CHILD_MS }).catch(
    (e: Error & { stderr?: string }) => e,
  );
  const report = join(project, 'result.json');
  if (!existsSync(report)) throw new Error(`the child Vitest wrote no report: ${String(outcome.stderr)}`);
  const result = JSON.parse(readFileSync(report, 'utf8')) as VitestJson;
  const statuses = new Map<string, { status: string; failureMessages: string[] }>();
  for (const file of result.testResults) {
    if (file.message) statuses.set(`file: ${file.message}`, { status: 'failed', failureMessages: [file.message] });
    for (const a of file.assertionResults) statuses.set(a.title, a);
  }
  return statuses;
}
