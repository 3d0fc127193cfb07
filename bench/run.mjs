#!/usr/bin/env node
/**
 * `npm run bench`: the sandbox side by side with a bare node:http server and with msw + @mswjs/http-middleware,
 * measured in one run, alternating rounds; prints Markdown tables of medians and ratios.
 *
 *   node bench/run.mjs [--smoke] [--seconds 5] [--rounds 5] [--cold 5]
 *                      [--cases server,cold,in-process,scale,stall,memory,breakdown]
 *                      [--tasks 100000] [--keys 10000] [--memory-tasks 100000,1000000] [--idle 10] [--json FILE]
 *                      [--routes agents,tasks/:id] [--connections 1,50] [--baseline DIR] [--state exit,1s,always] [--browser]
 *                      [--ceiling] [--spin 5,10,15]
 *
 * --baseline DIR adds another build of the CLI (DIR/dist/cli.js, e.g. a checkout of main) to the server and cold cases,
 * and its `sandbox.fetch` (DIR/dist/index.js) to the in-process case.
 * --state MODES adds the sandbox with `--state FILE --state-sync MODE` for each mode to the server case.
 * --browser adds the sandbox with headless Chromium open on its inspector to the server case.
 * --ceiling adds the sandbox's own door with fixed answers in place of the core (bench/targets/fixed-door.mjs): the door's
 * share of the cost, apart from the core's work.
 * --spin LIST adds that door once per number N, each answer spinning the CPU for N µs first: what a core costing N µs a
 * request (and leaving no garbage) would read against node:http, so that a ratio goal reads as a budget in µs.
 *
 * Needs `dist/` (npx tsup). --smoke: one round of about a second per case, for CI (nothing is asserted on times).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';

if (!existsSync(new URL('../dist/cli.js', import.meta.url))) {
  process.stderr.write('bench: dist/ is missing: build the package first (npx tsup).\n');
  process.exit(1);
}
const { sampleAnswers } = await import('./fixtures.mjs');
import { benchGoals, spinServer } from './goals.mjs';
import { cpuMsOf, fmt, load, median, pairedRatio, ROOT, rssOf, runJson, settled, start, table } from './lib.mjs';

const { values: args } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    seconds: { type: 'string' },
    rounds: { type: 'string' },
    cold: { type: 'string' },
    cases: { type: 'string', default: 'server,cold,in-process,scale,stall,memory,breakdown' },
    'memory-tasks': { type: 'string' },
    idle: { type: 'string' },
    warmup: { type: 'string' },
    tasks: { type: 'string' },
    keys: { type: 'string' },
    json: { type: 'string' },
    routes: { type: 'string' },
    connections: { type: 'string' },
    baseline: { type: 'string' },
    state: { type: 'string' },
    browser: { type: 'boolean', default: false },
    ceiling: { type: 'boolean', default: false },
    spin: { type: 'string' },
    servers: { type: 'string' },
  },
});
const smoke = args.smoke;
const seconds = Number(args.seconds ?? (smoke ? 1 : 5));
const rounds = Number(args.rounds ?? (smoke ? 1 : 5));
const coldRuns = Number(args.cold ?? (smoke ? 1 : 5));
const bigTasks = Number(args.tasks ?? (smoke ? 10_000 : 100_000));
const bigKeys = Number(args.keys ?? (smoke ? 1_000 : 10_000));
const cases = new Set(args.cases.split(','));
const memoryTasks = (args['memory-tasks'] ?? (smoke ? '20000' : '100000')).split(',').map(Number);
const idleSeconds = Number(args.idle ?? (smoke ? 1 : 10));
/** Seconds of uncounted load on every server before a route's counted rounds (the goals are judged "after a warm-up"). */
const warmupSeconds = Number(args.warmup ?? (smoke ? 0 : Math.min(2, seconds)));
/** How the rounds of `alternate` (the server and scale cases) run, for their headings. */
const ROUNDS_LABEL = `${seconds} s per run${warmupSeconds > 0 ? ` after a ${warmupSeconds} s warm-up` : ''}, median of ${rounds} alternating rounds`;
const CONNECTIONS = (args.connections ?? '1,50').split(',').map(Number);
/** `--spin 5,10`: µs of CPU for each stand-in core (positive numbers). */
const SPINS = args.spin ? args.spin.split(',').map(Number) : [];
if (SPINS.some((us) => !(us > 0 && us < 1e6))) {
  process.stderr.write(`bench: --spin takes positive numbers of µs separated by commas (got ${args.spin}).\n`);
  process.exit(1);
}

const sample = sampleAnswers();
const KEY = sample.key;
const BODY = sample.body;
/** `--routes a,b`: only the requests whose name holds one of them. */
const wantedRoute = (name) => !args.routes || args.routes.split(',').some((part) => name.includes(part));
/** The largest --connections: where the ratios to node:http are judged and the breakdown case runs. */
const MOST_CONNECTIONS = Math.max(...CONNECTIONS);
const ROUTES = [
  { name: 'GET /ext/agents', method: 'GET', path: () => '/ext/agents' },
  { name: 'GET /ext/tasks/:id', method: 'GET', path: (t) => `/ext/tasks/${t.taskId}` },
  { name: 'POST /ext/tasks', method: 'POST', path: () => '/ext/tasks', body: BODY },
].filter((r) => wantedRoute(r.name));
const authHeaders = (key = KEY) => ({ authorization: `Bearer ${key}` });
const report = { machine: machine(), options: { smoke, seconds, rounds, coldRuns, bigTasks, bigKeys }, results: {} };
const out = (text = '') => process.stdout.write(`${text}\n`);
const log = (text) => process.stderr.write(`${text}\n`);

function machine() {
  const cpus = os.cpus();
  return {
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    cpu: cpus[0]?.model ?? '?',
    cores: cpus.length,
    memGB: Math.round(os.totalmem() / 2 ** 30),
    load: os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' '),
  };
}

/** Creates one task over HTTP; its id is what GET /ext/tasks/:id asks for. */
async function createTaskOver(url, key = KEY) {
  const res = await fetch(`${url}/ext/tasks`, {
    method: 'POST',
    headers: { ...authHeaders(key), 'content-type': 'application/json' },
    body: BODY,
  });
  if (res.status !== 201) throw new Error(`POST ${url}/ext/tasks answered ${res.status}: ${await res.text()}`);
  return (await res.json()).id;
}

const jsonLine = (line) => line.startsWith('{');

/** The three servers of the server case. Each resolves to { name, url, key, taskId, pid, stop }. */
async function cliServer(cli, extra = []) {
  const s = await start(process.execPath, [cli, '--port', '0', '--quiet', ...extra], {
    ready: (l) => l.startsWith('http'),
  });
  const url = s.line.trim();
  const origin = new URL(url).origin;
  const patch = await fetch(`${origin}/__sandbox/accounts/acc_demo`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ limits: { rpm: 100_000_000, tpm: 100_000_000_000 }, balance_usd: 1_000_000 }),
  });
  if (patch.status !== 200) throw new Error(`PATCH /__sandbox/accounts/acc_demo answered ${patch.status}`);
  const taskId = await createTaskOver(url);
  await finished(url, taskId);
  return { url, key: KEY, taskId, pid: s.child.pid, stop: s.stop };
}

/**
 * Waits until a task is finished (the real clock ends a task within seconds): GET /ext/tasks/:id then reads the same
 * answer in every round of every build, the finished task with its result, as node:http serves it.
 */
async function finished(url, taskId, maxMs = 30_000) {
  for (const until = Date.now() + maxMs; Date.now() < until; await new Promise((r) => setTimeout(r, 250))) {
    const res = await fetch(`${url}/ext/tasks/${taskId}`, { headers: authHeaders() });
    const { status } = await res.json();
    if (status === 'completed' || status === 'failed') return;
  }
  throw new Error(`task ${taskId} at ${url} did not finish within ${maxMs / 1000} s`);
}

/** A server of bench/targets/ that prints `{"url": …}` when listening. */
async function scriptServer(script, scriptArgs = []) {
  const s = await start(process.execPath, [script, ...scriptArgs], { ready: jsonLine });
  const { url } = JSON.parse(s.line);
  return { url, key: KEY, taskId: await createTaskOver(url), pid: s.child.pid, stop: s.stop };
}

const SERVERS = {
  sandbox: () => cliServer('dist/cli.js'),
  ...(args.baseline
    ? {
        [`sandbox@${args.baseline}`]: () => cliServer(`${args.baseline}/dist/cli.js`),
        // node:http serving the baseline's answers: what its bytes cost, apart from its code (bench/goals.mjs).
        [`node:http, bytes of ${args.baseline}`]: () => scriptServer('bench/targets/bare.mjs', [args.baseline]),
      }
    : {}),
  // --state exit,1s,always: the sandbox with a state file per --state-sync mode (each in a fresh temporary file).
  ...Object.fromEntries(
    (args.state ? args.state.split(',') : []).map((mode) => [
      `sandbox --state-sync ${mode}`,
      () => {
        const file = join(tmpdir(), `aws-bench-state-${process.pid}-${mode}.json`);
        rmSync(file, { force: true });
        return cliServer('dist/cli.js', ['--state', file, '--state-sync', mode]);
      },
    ]),
  ),
  // --browser: the sandbox again, with headless Chromium open on its inspector (bench/cases/browser-open.mjs).
  ...(args.browser
    ? {
        'sandbox, inspector open': (await import('./cases/browser-open.mjs')).withInspectorOpen(() =>
          cliServer('dist/cli.js'),
        ),
      }
    : {}),
  // --ceiling: the sandbox's node door, its core replaced by the sample answers (bench/targets/fixed-door.mjs).
  ...(args.ceiling
    ? {
        'sandbox door, fixed answers': () => scriptServer('bench/targets/fixed-door.mjs'),
      }
    : {}),
  // --spin 5,10: that door with N µs of CPU spent per answer in place of the core (a core's budget, see above).
  ...Object.fromEntries(
    SPINS.map((us) => [spinServer(us), () => scriptServer('bench/targets/fixed-door.mjs', [String(us)])]),
  ),
  'node:http': () => scriptServer('bench/targets/bare.mjs'),
  'msw+http-middleware': () => scriptServer('bench/targets/msw-middleware.mjs'),
};

/**
 * Loads every (route, connections) on every target, `rounds` times, rotating the order of the targets each round.
 * @returns results[route][connections][target] = [{ rps, p50, p99, cpuUs, ok, … }] and rss[target] = [MiB after each
 * round of each route].
 */
async function alternate(targets) {
  const results = {};
  const rss = Object.fromEntries(Object.keys(targets).map((n) => [n, []]));
  const names = Object.keys(targets);
  // Routes outermost: the tasks that POST creates settle over the next seconds and would load the GETs after it.
  for (const route of ROUTES) {
    // Warm-up, not counted: every server compiles its hot path for this route before the first counted round.
    if (warmupSeconds > 0) {
      for (const name of names) {
        await loadOne(targets[name], route, MOST_CONNECTIONS, warmupSeconds);
        await settled(targets[name].pid);
      }
      log(`  ${route.name} warm-up: ${warmupSeconds} s on each server, not counted`);
    }
    for (let round = 0; round < rounds; round++) {
      const order = names.map((_, i) => names[(i + round) % names.length]);
      for (const connections of CONNECTIONS) {
        for (const name of order) {
          const t = targets[name];
          const cpuBefore = cpuMsOf(t.pid);
          const r = await loadOne(t, route, connections, seconds);
          // The CPU until the server is idle again: a POST's tasks settle after the load, and the next round is
          // another server's (its requests/s are not to be slowed by this one's leftover work).
          await settled(t.pid);
          r.cpuUs = ((cpuMsOf(t.pid) - cpuBefore) * 1000) / Math.max(1, r.requests);
          ((results[route.name] ??= {})[connections] ??= {})[name] ??= [];
          results[route.name][connections][name].push(r);
          log(
            `  ${route.name} round ${round + 1}/${rounds} c=${connections} ${name}: ${fmt.int(r.rps)} req/s, p50 ${fmt.ms(r.p50)} ms, p99 ${fmt.ms(r.p99)} ms, CPU ${fmt.us(r.cpuUs)} µs/req, non-2xx ${r.requests - r.ok}`,
          );
        }
      }
      for (const name of names) rss[name].push(rssOf(targets[name].pid));
    }
  }
  return { results, rss };
}

/** One load of `route` on one server. */
function loadOne(t, route, connections, loadSeconds) {
  return load({
    url: `${t.url}${route.path(t)}`,
    method: route.method,
    headers: { ...authHeaders(t.key), ...(route.body ? { 'content-type': 'application/json' } : {}) },
    body: route.body,
    connections,
    seconds: loadSeconds,
  });
}

/** `--servers a,b`: only the servers whose name holds one of them (node:http, the reference, always runs). */
const wantedServer = (name) =>
  name === 'node:http' || !args.servers || args.servers.split(',').some((part) => name.includes(part));

const summary = (runs) => ({
  rps: median(runs.map((r) => r.rps)),
  p50: median(runs.map((r) => r.p50)),
  p99: median(runs.map((r) => r.p99)),
  cpuUs: median(runs.map((r) => r.cpuUs)),
  failed: runs.reduce((n, r) => n + (r.requests - r.ok) + r.errors, 0),
});

async function serverCase() {
  log('server: starting the three servers');
  const targets = {};
  try {
    for (const [name, launch] of Object.entries(SERVERS)) if (wantedServer(name)) targets[name] = await launch();
    const { results, rss } = await alternate(targets);
    const rows = [];
    for (const route of ROUTES) {
      for (const c of CONNECTIONS) {
        const bareRuns = results[route.name][c]['node:http'];
        const bare = summary(bareRuns);
        for (const name of Object.keys(targets)) {
          const runs = results[route.name][c][name];
          const s = summary(runs);
          rows.push([
            route.name,
            c,
            name,
            fmt.int(s.rps),
            fmt.ratio(pairedRatio(runs, bareRuns, 'rps')),
            fmt.ratio(s.rps / bare.rps),
            fmt.ms(s.p50),
            fmt.ms(s.p99),
            fmt.us(s.cpuUs),
            fmt.ratio(pairedRatio(runs, bareRuns, 'cpuUs')),
            s.failed,
          ]);
        }
      }
    }
    const rssRows = Object.keys(targets).map((n) => [n, fmt.mb(median(rss[n])), fmt.mb(Math.max(...rss[n]))]);
    report.results.server = { results, rss };
    out(`## Server (${ROUNDS_LABEL})\n`);
    out(
      table(
        [
          'request',
          'connections',
          'server',
          'requests/s',
          'ratio to node:http (median of the rounds)',
          'ratio of the medians',
          'p50 ms',
          'p99 ms',
          'server CPU µs/request (until idle again)',
          'node:http CPU ÷ this (median of the rounds)',
          'non-2xx',
        ],
        rows,
      ),
    );
    out();
    out(table(['server', 'RSS after load, median (MiB)', 'RSS max (MiB)'], rssRows));
    out();
  } finally {
    for (const t of Object.values(targets)) t.stop();
  }
}

/** Launch → first 200 on GET /ext/agents: wall ms, and CPU ms the launched process used (Linux schedstat). */
async function coldStart(command, args, cwd) {
  const t0 = performance.now();
  const s = await start(command, args, { ready: (l) => l.startsWith('http'), cwd });
  try {
    const res = await fetch(`${s.line.trim()}/ext/agents`, { headers: authHeaders() });
    await res.text();
    if (res.status !== 200) throw new Error(`first request answered ${res.status}`);
    return { wall: performance.now() - t0, cpu: cpuMsOf(s.child.pid) };
  } finally {
    s.stop();
  }
}

/** Launch → first 200 from `sandbox.fetch`, in a script that imports one library entry (bench/cases/first-fetch.mjs). */
async function coldImport(entry) {
  const t0 = performance.now();
  const s = await start(process.execPath, ['bench/cases/first-fetch.mjs', entry, KEY], { ready: (l) => l === '200' });
  try {
    return { wall: performance.now() - t0, cpu: cpuMsOf(s.child.pid) };
  } finally {
    s.stop();
  }
}

/**
 * A project that installed this package, as npm lays it out: `node_modules/agent-work-sandbox` (a link to this build)
 * and its bin in `node_modules/.bin`. There npx runs the bin at once (npm's own floor for an npx launch); in this
 * repository npx first installs the repository into its cache, because the command is the repository's own bin.
 */
function installedProject() {
  const dir = mkdtempSync(join(tmpdir(), 'aws-bench-installed-'));
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "name": "bench-installed-project", "private": true }\n');
  symlinkSync(ROOT, join(dir, 'node_modules', 'agent-work-sandbox'), 'dir');
  symlinkSync('../agent-work-sandbox/dist/cli.js', join(dir, 'node_modules', '.bin', 'agent-work-sandbox'));
  return dir;
}

async function coldCase() {
  log('cold start');
  const installed = installedProject();
  try {
    await coldLaunches(installed);
  } finally {
    rmSync(installed, { recursive: true, force: true });
  }
}

const NPX_ARGS = ['--no-install', 'agent-work-sandbox', '--port', '0', '--quiet'];

async function coldLaunches(installed) {
  const ways = {
    'node dist/cli.js': () => coldStart(process.execPath, ['dist/cli.js', '--port', '0', '--quiet']),
    'npx agent-work-sandbox': () => coldStart('npx', NPX_ARGS),
    'npx agent-work-sandbox, in a project that installed it': () => coldStart('npx', NPX_ARGS, installed),
    'bare node:http (reference)': () => coldStart(process.execPath, ['bench/targets/bare-min.mjs', KEY]),
    // In-process: no server; the process imports the library and answers its first request through `sandbox.fetch`.
    'in-process: import agent-work-sandbox, first sandbox.fetch': () => coldImport('dist/index.js'),
    'in-process: import agent-work-sandbox/fetch (no msw), first sandbox.fetch': () => coldImport('dist/fetch.js'),
    ...(args.baseline
      ? {
          [`node ${args.baseline}/dist/cli.js`]: () =>
            coldStart(process.execPath, [`${args.baseline}/dist/cli.js`, '--port', '0', '--quiet']),
        }
      : {}),
  };
  const times = Object.fromEntries(Object.keys(ways).map((n) => [n, []]));
  for (let i = 0; i < coldRuns; i++) {
    for (const [name, run] of Object.entries(ways)) {
      let t;
      try {
        t = await run();
      } catch (error) {
        // A launch that never answers (npx on a loaded machine) is reported, not fatal to the other cases.
        log(`  ${name}: failed: ${String(error.message).split('\n')[0]}`);
        continue;
      }
      times[name].push(t);
      log(`  ${name}: ${fmt.ms(t.wall)} ms (CPU ${fmt.ms(t.cpu)} ms)`);
    }
  }
  report.results.cold = times;
  const bare = times['bare node:http (reference)'];
  const bareWall = median(bare.map((t) => t.wall));
  const bareCpu = median(bare.map((t) => t.cpu));
  out(`## Cold start: process launch → first 200 (median of ${coldRuns})\n`);
  out(
    table(
      ['command', 'wall ms', 'ratio to bare', 'CPU ms of the process', 'CPU ratio to bare'],
      Object.entries(times).map(([n, t]) => {
        const wall = median(t.map((x) => x.wall));
        const cpu = median(t.map((x) => x.cpu));
        return [
          n,
          fmt.ms(wall),
          fmt.ratio(wall / bareWall),
          n.startsWith('npx') ? '– (npm)' : fmt.ms(cpu),
          n.startsWith('npx') ? '–' : fmt.ratio(cpu / bareCpu),
        ];
      }),
    ),
  );
  out();
}

async function inProcessCase() {
  log('in-process');
  const r = await runJson(['bench/cases/in-process.mjs', JSON.stringify({ seconds, rounds, baseline: args.baseline })]);
  const withBaseline = args.baseline !== undefined;
  report.results.inProcess = r;
  out(
    `## In-process: msw setupServer, sequential fetch (${seconds} s per run, median of ${rounds} rounds; batches of 50 in a random order, the event loop between them)\n`,
  );
  out(
    table(
      [
        'request',
        'sandbox handlers µs',
        'trivial msw handler µs',
        'ratio',
        'sandbox.fetch µs',
        'sandbox.fetch ÷ trivial msw',
        'sandbox.fetch(Request) µs',
        ...(withBaseline
          ? [
              `sandbox.fetch@${args.baseline} µs`,
              'sandbox.fetch ÷ baseline',
              `sandbox.fetch(Request)@${args.baseline} µs`,
              'sandbox.fetch(Request) ÷ baseline',
            ]
          : []),
      ],
      Object.entries(r.fetch).map(([n, v]) => [
        n,
        fmt.us(v.sandbox),
        fmt.us(v.trivial),
        fmt.ratio(v.sandbox / v.trivial),
        v.fetch === undefined ? '–' : fmt.us(v.fetch),
        v.fetch === undefined ? '–' : fmt.ratio(v.fetch / v.trivial),
        v.fetchRequest === undefined ? '–' : fmt.us(v.fetchRequest),
        ...(withBaseline
          ? [
              fmt.us(v.baselineFetch),
              fmt.ratio(v.fetch / v.baselineFetch),
              fmt.us(v.baselineFetchRequest),
              fmt.ratio(v.fetchRequest / v.baselineFetchRequest),
            ]
          : []),
      ]),
    ),
  );
  out();
  out(
    table(
      ['operation', 'ms (median)'],
      [
        ['sandbox.reset()', r.resetMs.toFixed(3)],
        ['createSandbox() (default fixtures)', r.createMs.toFixed(2)],
      ],
    ),
  );
  out();
}

async function scaleCase() {
  const sizes = { small: { tasks: 100, keys: 0 }, large: { tasks: bigTasks, keys: bigKeys } };
  const targets = {};
  const info = {};
  const files = [];
  try {
    for (const [name, size] of Object.entries(sizes)) {
      log(`scale: building ${size.tasks} tasks, ${size.keys} extra keys`);
      const file = join(tmpdir(), `aws-bench-${process.pid}-${name}.json`);
      files.push(file);
      info[name] = await runJson(
        ['bench/targets/scaled.mjs', JSON.stringify({ ...size, samples: smoke ? 500 : 2000, file })],
        ['--expose-gc'],
      );
      // The CLI serves the state (SIGKILL at the end: it never saves it back). `--state-sync exit`: this case measures
      // how lookups scale with the state's size; the default write-behind save (a whole snapshot a second while
      // requests change the state) is the `--state` modes' cost, measured by the server case's `--state 1s`. The
      // retention bound is lifted, so the CLI keeps every task of the state (its default keeps 10,000: the task read
      // would answer 404).
      const args = ['dist/cli.js', '--port', '0', '--quiet', '--state', file, '--state-sync', 'exit'];
      args.push('--task-retention', '1000000000');
      const s = await start(process.execPath, args, {
        ready: (l) => l.startsWith('http'),
        timeoutMs: 300_000,
      });
      await new Promise((r) => setTimeout(r, 500));
      info[name].rssMB = rssOf(s.child.pid);
      targets[name] = {
        url: s.line.trim(),
        key: info[name].key,
        taskId: info[name].taskId,
        pid: s.child.pid,
        stop: s.stop,
      };
    }
    const { results, rss } = await alternate(targets);
    const label = (n) =>
      `${sizes[n].tasks.toLocaleString('en-US')} tasks${sizes[n].keys ? `, ${sizes[n].keys.toLocaleString('en-US')} keys` : ''}`;
    const rows = [];
    for (const route of ROUTES) {
      for (const c of CONNECTIONS) {
        const small = summary(results[route.name][c].small);
        const large = summary(results[route.name][c].large);
        rows.push([
          route.name,
          c,
          fmt.int(small.rps),
          fmt.int(large.rps),
          fmt.ms(small.p50),
          fmt.ms(large.p50),
          fmt.ratio(large.p50 / small.p50),
          fmt.ms(small.p99),
          fmt.ms(large.p99),
          fmt.ratio(large.p99 / small.p99),
          fmt.us(small.cpuUs),
          fmt.us(large.cpuUs),
          fmt.ratio(large.cpuUs / small.cpuUs),
        ]);
      }
    }
    const coreRows = ROUTES.map((r) => [
      r.name,
      fmt.us(info.small.core[r.name]),
      fmt.us(info.large.core[r.name]),
      fmt.ratio(info.large.core[r.name] / info.small.core[r.name]),
    ]);
    report.results.scale = { sizes, info, results, rss };
    out(
      `## Scale: ${label('small')} vs ${label('large')} (the CLI with --state FILE --state-sync exit, over HTTP, ${ROUNDS_LABEL})\n`,
    );
    out(
      table(
        [
          'request',
          'connections',
          'req/s small',
          'req/s large',
          'p50 small',
          'p50 large',
          'p50 ratio',
          'p99 small',
          'p99 large',
          'p99 ratio',
          'CPU µs/req small',
          'CPU µs/req large',
          'CPU ratio',
        ],
        rows,
      ),
    );
    out();
    out(table(['request (core, in-process)', 'µs small', 'µs large', 'ratio'], coreRows));
    out();
    out(
      table(
        ['state', 'build s (library)', 'CLI RSS after loading it (MiB)', 'CLI RSS after load (MiB)'],
        Object.keys(sizes).map((n) => [
          label(n),
          (info[n].buildMs / 1000).toFixed(1),
          fmt.mb(info[n].rssMB),
          fmt.mb(median(rss[n])),
        ]),
      ),
    );
    out();
  } finally {
    for (const t of Object.values(targets)) t.stop();
    for (const f of files) rmSync(f, { force: true });
  }
}

/**
 * The stall: POST load (50 connections) on each server, then every server idles `idleSeconds` (the tasks created all
 * fall due meanwhile), then one GET /ext/agents each: how long the first request after idle takes. RSS after the load
 * and after the idle.
 */
async function stallCase() {
  log(`stall: POST load ${seconds} s, idle ${idleSeconds} s, first request`);
  const names = Object.keys(SERVERS).filter((n) => !n.startsWith('msw'));
  const targets = {};
  const rows = [];
  const raw = [];
  try {
    for (const name of names) targets[name] = await SERVERS[name]();
    const loads = {};
    for (const name of names) {
      const t = targets[name];
      loads[name] = await load({
        url: `${t.url}/ext/tasks`,
        method: 'POST',
        headers: { ...authHeaders(t.key), 'content-type': 'application/json' },
        body: BODY,
        connections: 50,
        seconds,
      });
      loads[name].rssLoad = rssOf(t.pid);
      log(
        `  ${name}: ${fmt.int(loads[name].rps)} POST/s, p99 ${fmt.ms(loads[name].p99)} ms, RSS ${fmt.mb(loads[name].rssLoad)} MiB`,
      );
    }
    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    for (const name of names) {
      const t = targets[name];
      const t0 = performance.now();
      const res = await fetch(`${t.url}/ext/agents`, { headers: authHeaders(t.key) });
      await res.text();
      const firstMs = performance.now() - t0;
      const second0 = performance.now();
      await (await fetch(`${t.url}/ext/agents`, { headers: authHeaders(t.key) })).text();
      const secondMs = performance.now() - second0;
      const l = loads[name];
      raw.push({ name, postRps: l.rps, postP99: l.p99, firstMs, secondMs, rssLoadMB: l.rssLoad });
      rows.push([
        name,
        fmt.int(l.requests),
        fmt.int(l.rps),
        fmt.ms(l.p99),
        fmt.ms(firstMs),
        fmt.ms(secondMs),
        fmt.mb(l.rssLoad),
        fmt.mb(rssOf(t.pid)),
      ]);
      log(
        `  ${name}: first request after idle ${fmt.ms(firstMs)} ms (status ${res.status}), next ${fmt.ms(secondMs)} ms`,
      );
    }
  } finally {
    for (const t of Object.values(targets)) t.stop();
  }
  report.results.stall = raw;
  out(`## After idle: POST load ${seconds} s (50 connections), ${idleSeconds} s idle, then one GET /ext/agents\n`);
  out(
    table(
      [
        'server',
        'tasks created',
        'POST/s',
        'POST p99 ms',
        'first request after idle ms',
        'next request ms',
        'RSS after load MiB',
        'RSS after idle MiB',
      ],
      rows,
    ),
  );
  out();
}

/** Heap per stored task, `clock.advance` over all of them, retention (bench/cases/memory.mjs), this build and --baseline. */
async function memoryCase() {
  const builds = {
    sandbox: 'dist',
    ...(args.baseline ? { [`sandbox@${args.baseline}`]: `${args.baseline}/dist` } : {}),
  };
  const rows = [];
  const all = [];
  for (const tasks of memoryTasks) {
    for (const [name, dist] of Object.entries(builds)) {
      log(`memory: ${name}, ${tasks} tasks`);
      const part = (which) =>
        runJson(
          ['bench/cases/memory.mjs', JSON.stringify({ tasks, dist, part: which })],
          ['--expose-gc', '--max-old-space-size=8192'],
        );
      const r = { ...(await part('stored')), ...(await part('retention')) };
      all.push({ name, ...r });
      rows.push([
        name,
        tasks.toLocaleString('en-US'),
        fmt.us(r.postUs),
        Math.round(r.heapPerQueuedTask),
        Math.round(r.heapPerFinishedTask),
        fmt.ms(r.advanceMs),
        fmt.mb(r.rssMB),
        fmt.mb(r.restRssMB),
        `${r.retention.queuedMB.toFixed(0)} → ${r.retention.afterDropMB.toFixed(0)}`,
      ]);
    }
  }
  report.results.memory = all;
  out('## Stored tasks, in-process (manual clock; heap after GC)\n');
  out(
    table(
      [
        'build',
        'tasks',
        'POST µs (core)',
        'heap B per queued task',
        'heap B per finished task',
        "clock.advance('1m') ms",
        'RSS MiB',
        'RSS at rest MiB',
        'retention 10,000: heap MiB queued → after drop',
      ],
      rows,
    ),
  );
  out();
}

/**
 * Where a request's CPU goes in the node server (bench/cases/breakdown.mjs), GET /ext/agents and POST /ext/tasks at
 * the largest --connections: the sandbox against its own door with fixed answers, alternating, `rounds` times.
 */
async function breakdownCase() {
  const connections = MOST_CONNECTIONS;
  const routes = [
    ['GET /ext/agents', 'agents'],
    ['POST /ext/tasks', 'post'],
  ].filter(([name]) => wantedRoute(name));
  const modes = [
    ['sandbox', 'core'],
    ['its door, fixed answers', 'fixed'],
  ];
  const rows = [];
  const all = [];
  for (const [name, route] of routes) {
    const runs = Object.fromEntries(modes.map(([, mode]) => [mode, []]));
    for (let round = 0; round < rounds; round++) {
      for (const [, mode] of round % 2 === 0 ? modes : [...modes].reverse()) {
        log(`breakdown: ${name}, ${mode}, round ${round + 1}/${rounds}`);
        runs[mode].push(
          await runJson(['bench/cases/breakdown.mjs', JSON.stringify({ route, mode, seconds, connections })]),
        );
      }
    }
    for (const [label, mode] of modes) {
      const m = (field) => median(runs[mode].map((r) => r[field]));
      all.push(...runs[mode]);
      rows.push([
        name,
        label,
        fmt.int(m('rps')),
        fmt.us(m('cpuUs')),
        fmt.us(m('mainUs')),
        fmt.us(m('otherThreadsUs')),
        mode === 'fixed' ? '–' : fmt.us(m('coreUs')),
        fmt.us(m('gcPauseUs')),
        fmt.us(m('sysUs')),
        runs[mode].reduce((n, r) => n + r.nonOk, 0),
      ]);
    }
  }
  report.results.breakdown = all;
  out(
    `## Where a request's CPU goes: the server in-process (\`sandbox.listen()\`), ${connections} connections, ${seconds} s per run, median of ${rounds}\n`,
  );
  out(
    table(
      [
        'request',
        'server',
        'requests/s',
        'CPU µs/request',
        'main thread',
        "V8's helper threads",
        'in the core (sandbox.handle)',
        'main-thread GC pauses',
        'of which kernel (sys)',
        'non-2xx',
      ],
      rows,
    ),
  );
  out();
}

/** The bench's goals against what this run measured (bench/goals.mjs): only the goals of the cases that ran. */
function goalsTable() {
  const rows = benchGoals(report.results, { connections: MOST_CONNECTIONS, spins: SPINS, baseline: args.baseline });
  if (rows.length === 0) return;
  out(`## Goals, as measured by this run${smoke ? ' (smoke: no verdict means anything)' : ''}\n`);
  out(
    table(
      ['measure', 'this run', 'goal', 'verdict'],
      rows.map((r) => [r.measure, r.value, r.goal, verdict(r.met)]),
    ),
  );
  out();
}

const verdict = (met) => (met === undefined ? '–' : met ? 'met' : '**not met**');

out(`# agent-work-sandbox bench${smoke ? ' (smoke: numbers are not meaningful)' : ''}\n`);
out(
  `Node ${report.machine.node}, ${report.machine.cpu}, ${report.machine.cores} cores, ${report.machine.memGB} GB, ${report.machine.platform}; load average at start ${report.machine.load}.\n`,
);
if (cases.has('server')) await serverCase();
if (cases.has('cold')) await coldCase();
if (cases.has('in-process')) await inProcessCase();
if (cases.has('scale')) await scaleCase();
if (cases.has('stall')) await stallCase();
if (cases.has('memory')) await memoryCase();
if (cases.has('breakdown')) await breakdownCase();
goalsTable();
if (args.json) writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
