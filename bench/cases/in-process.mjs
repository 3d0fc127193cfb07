/**
 * In-process: µs per `fetch` through msw's `setupServer` with the sandbox's handlers against msw with trivial
 * handlers answering the same bytes, and per call of `sandbox.fetch` (no msw; given a URL and init, and given one
 * `Request`), interleaved in batches of 50 (in a random order); then `reset()` and `createSandbox()` times. With
 * `"baseline":"DIR"`, the `sandbox.fetch` of DIR/dist/index.js (another build, e.g. a checkout of main) runs in the
 * same process, interleaved with the others. Two builds in one process do not each run as they would alone: with DIR a
 * copy of the same code, its ratios read 0.84–1.17 (docs/benchmarks.md, issue 16, eleventh pass).
 * Usage: node bench/cases/in-process.mjs '{"seconds":1,"rounds":3,"baseline":"../main"}'  →  one JSON line.
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createSandbox } from '../../dist/index.js';
import { adminKey, sampleAnswers, taskBody, unlimit } from '../fixtures.mjs';

const { seconds, rounds, baseline } = JSON.parse(process.argv[2] ?? '{}');
const BASE = 'http://sandbox.test/api/v1';

/** A sandbox that keeps every finished task, its admin key, and a task of its own to read. */
async function prepare(create) {
  // Every finished task is kept: the task that GET /ext/tasks/:id reads must outlive the POST batches of a long run.
  const sandbox = create({ taskRetention: Infinity });
  if (typeof sandbox.fetch !== 'function') throw new Error('the baseline build has no sandbox.fetch');
  unlimit(sandbox);
  const key = adminKey(sandbox);
  const res = await sandbox.fetch(`${BASE}/ext/tasks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: taskBody(sandbox),
  });
  if (res.status !== 201) throw new Error(`POST answered ${res.status}: ${await res.text()}`);
  return { sandbox, key, ownTask: (await res.json()).id };
}

const own = await prepare(createSandbox);
const base = baseline
  ? await prepare((await import(pathToFileURL(resolve(baseline, 'dist/index.js')).href)).createSandbox)
  : undefined;
const { sandbox, key } = own;
const body = taskBody(sandbox);
const sample = sampleAnswers();
const taskId = JSON.parse(sample.created.body).id;

const reply = (answer) => new HttpResponse(answer.body, { status: answer.status, headers: answer.headers });
const trivial = [
  http.get('*/api/v1/ext/agents', () => reply(sample.agents)),
  http.get('*/api/v1/ext/tasks/:id', () => reply(sample.task)),
  http.post('*/api/v1/ext/tasks', async ({ request }) => (await request.text(), reply(sample.created))),
];

const requests = {
  'GET /ext/agents': { sandbox: () => [`${BASE}/ext/agents`], trivial: () => [`${BASE}/ext/agents`] },
  'GET /ext/tasks/:id': {
    sandbox: (which = own) => [`${BASE}/ext/tasks/${which.ownTask}`],
    trivial: () => [`${BASE}/ext/tasks/${taskId}`],
  },
  'POST /ext/tasks': {
    sandbox: () => [`${BASE}/ext/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }],
    trivial: () => [`${BASE}/ext/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }],
  },
};

const server = setupServer();
server.listen({ onUnhandledRequest: 'error' });

/**
 * Runs n sequential fetches (with `auth`'s key); returns their total ms. `asRequest`: each call is given one `Request`
 * (built in the loop), as openapi-fetch and ky call a custom fetch.
 */
async function batch(args, n, fetcher = fetch, auth = key, asRequest = false) {
  const [url, init = {}] = args;
  const options = { ...init, headers: { ...init.headers, authorization: `Bearer ${auth}` } };
  const t = performance.now();
  for (let i = 0; i < n; i++) {
    const res = await (asRequest ? fetcher(new Request(url, options)) : fetcher(url, options));
    await res.text();
    if (res.status >= 300) throw new Error(`${url} answered ${res.status}`);
  }
  return performance.now() - t;
}

/** A copy of `xs` in a random order (Fisher–Yates). */
function shuffled(xs) {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The variants timed, by name: each runs one batch of n calls of a request (`variants`: its URL and init by door). */
const VARIANTS = {
  sandbox: (variants, n) => (server.resetHandlers(...sandbox.handlers), batch(variants.sandbox(), n)),
  trivial: (variants, n) => (server.resetHandlers(...trivial), batch(variants.trivial(), n)),
  fetch: (variants, n) => batch(variants.sandbox(), n, sandbox.fetch),
  fetchRequest: (variants, n) => batch(variants.sandbox(), n, sandbox.fetch, key, true),
  ...(base && {
    baselineFetch: (variants, n) => batch(variants.sandbox(base), n, base.sandbox.fetch, base.key),
    baselineFetchRequest: (variants, n) => batch(variants.sandbox(base), n, base.sandbox.fetch, base.key, true),
  }),
};
const NAMES = Object.keys(VARIANTS);

/**
 * One batch of 50 of a variant (its ms), then back to the event loop, as a test runner goes between tests. A run of
 * awaits that never leaves its job keeps every object a `WeakRef` handed out during it (the engine's kept-during-job
 * set), and msw's fetch interception hands out about 8 KB of them per request: without the return, the heap grows by
 * hundreds of MB over a run and every variant pays for collecting it.
 */
async function batchThenYield(name, variants) {
  const ms = await VARIANTS[name](variants, 50);
  await new Promise((done) => setImmediate(done));
  return ms;
}

/**
 * Every variant in small interleaved batches of 50, in a new random order each time, for `seconds` in all (so that
 * all see the same machine load); µs per request of each.
 */
async function timeAll(variants) {
  const total = Object.fromEntries(NAMES.map((v) => [v, 0]));
  const count = Object.fromEntries(NAMES.map((v) => [v, 0]));
  for (const name of NAMES) await batchThenYield(name, variants); // warm-up
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    // A new order every time: a batch pays for the garbage the batch before it left and can start warm after one of its
    // own kind, so a fixed order (alternating its direction included) favours some variants over others.
    for (const name of shuffled(NAMES)) {
      total[name] += await batchThenYield(name, variants);
      count[name] += 50;
    }
  }
  return Object.fromEntries(NAMES.map((v) => [v, (total[v] * 1000) / count[v]]));
}

/** Per request, per variant: the µs of each round. */
const results = Object.fromEntries(
  Object.keys(requests).map((name) => [name, Object.fromEntries(NAMES.map((v) => [v, []]))]),
);
for (let round = 0; round < rounds; round++) {
  for (const [name, variants] of Object.entries(requests)) {
    const r = await timeAll(variants);
    for (const v of NAMES) results[name][v].push(r[v]);
  }
}
server.close();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const timeEach = (n, fn) => {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  return median(times);
};

const count = Math.max(20, Math.round(200 * seconds));
const resetMs = timeEach(count, () => sandbox.reset());
const createMs = timeEach(Math.max(10, Math.round(20 * seconds)), () => createSandbox());

process.stdout.write(
  `${JSON.stringify({
    fetch: Object.fromEntries(
      Object.entries(results).map(([name, r]) => [
        name,
        Object.fromEntries(Object.entries(r).map(([v, runs]) => [v, median(runs)])),
      ]),
    ),
    resetMs,
    createMs,
  })}\n`,
);
