/**
 * In-process: µs per `fetch` through msw's `setupServer` with the sandbox's handlers against msw with trivial
 * handlers answering the same bytes, and per call of `sandbox.fetch` (no msw), interleaved in batches of 50; then
 * `reset()` and `createSandbox()` times.
 * Usage: node bench/cases/in-process.mjs '{"seconds":1,"rounds":3}'  →  one JSON line.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createSandbox } from '../../dist/index.js';
import { adminKey, sampleAnswers, taskBody, unlimit } from '../fixtures.mjs';

const { seconds, rounds } = JSON.parse(process.argv[2] ?? '{}');
const BASE = 'http://sandbox.test/api/v1';

// Every finished task is kept: the task that GET /ext/tasks/:id reads must outlive the POST batches of a long run.
const sandbox = createSandbox({ taskRetention: Infinity });
unlimit(sandbox);
const key = adminKey(sandbox);
const body = taskBody(sandbox);
const sample = sampleAnswers();
const taskId = JSON.parse(sample.created.body).id;
// The sandbox's own task for GET /ext/tasks/:id.
const ownTask = (await (await fetchVia()).json()).id;

async function fetchVia() {
  const server = setupServer(...sandbox.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    return await fetch(`${BASE}/ext/tasks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
    });
  } finally {
    server.close();
  }
}

const reply = (answer) => new HttpResponse(answer.body, { status: answer.status, headers: answer.headers });
const trivial = [
  http.get('*/api/v1/ext/agents', () => reply(sample.agents)),
  http.get('*/api/v1/ext/tasks/:id', () => reply(sample.task)),
  http.post('*/api/v1/ext/tasks', async ({ request }) => (await request.text(), reply(sample.created))),
];

const requests = {
  'GET /ext/agents': { sandbox: () => [`${BASE}/ext/agents`], trivial: () => [`${BASE}/ext/agents`] },
  'GET /ext/tasks/:id': {
    sandbox: () => [`${BASE}/ext/tasks/${ownTask}`],
    trivial: () => [`${BASE}/ext/tasks/${taskId}`],
  },
  'POST /ext/tasks': {
    sandbox: () => [`${BASE}/ext/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }],
    trivial: () => [`${BASE}/ext/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }],
  },
};

const server = setupServer();
server.listen({ onUnhandledRequest: 'error' });

/** Runs n sequential fetches; returns their total ms. */
async function batch(args, n, fetcher = fetch) {
  const [url, init = {}] = args;
  const options = { ...init, headers: { ...init.headers, authorization: `Bearer ${key}` } };
  const t = performance.now();
  for (let i = 0; i < n; i++) {
    const res = await fetcher(url, options);
    await res.text();
    if (res.status >= 300) throw new Error(`${url} answered ${res.status}`);
  }
  return performance.now() - t;
}

/**
 * Both variants in small interleaved batches for `seconds` in all (so that both see the same machine load);
 * µs per request of each.
 */
async function timeBoth(variants) {
  const VARIANTS = ['sandbox', 'trivial', 'fetch'];
  const total = { sandbox: 0, trivial: 0, fetch: 0 };
  const count = { sandbox: 0, trivial: 0, fetch: 0 };
  const run = (variant, n) => {
    if (variant === 'fetch') return batch(variants.sandbox(), n, sandbox.fetch);
    server.resetHandlers(...(variant === 'sandbox' ? sandbox.handlers : trivial));
    return batch(variants[variant](), n);
  };
  for (const variant of VARIANTS) await run(variant, 50); // warm-up
  const until = performance.now() + seconds * 1000;
  for (let i = 0; performance.now() < until; i++) {
    for (const variant of i % 2 === 0 ? VARIANTS : [...VARIANTS].reverse()) {
      total[variant] += await run(variant, 50);
      count[variant] += 50;
    }
  }
  return Object.fromEntries(VARIANTS.map((v) => [v, (total[v] * 1000) / count[v]]));
}

const results = {};
for (const name of Object.keys(requests)) results[name] = { sandbox: [], trivial: [], fetch: [] };
for (let round = 0; round < rounds; round++) {
  for (const [name, variants] of Object.entries(requests)) {
    const r = await timeBoth(variants);
    results[name].sandbox.push(r.sandbox);
    results[name].trivial.push(r.trivial);
    results[name].fetch.push(r.fetch);
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
        { sandbox: median(r.sandbox), trivial: median(r.trivial), fetch: median(r.fetch) },
      ]),
    ),
    resetMs,
    createMs,
  })}\n`,
);
