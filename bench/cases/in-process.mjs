/**
 * In-process: µs per `fetch` through msw's `setupServer` with the sandbox's handlers against msw with trivial
 * handlers answering the same bytes, alternating; then `reset()` and `createSandbox()` times.
 * Usage: node bench/cases/in-process.mjs '{"seconds":1,"rounds":3}'  →  one JSON line.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createSandbox } from '../../dist/index.js';
import { adminKey, sampleAnswers, taskBody, unlimit } from '../fixtures.mjs';

const { seconds, rounds } = JSON.parse(process.argv[2] ?? '{}');
const BASE = 'http://sandbox.test/api/v1';

const sandbox = createSandbox();
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
    return await fetch(`${BASE}/ext/tasks`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
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
  'GET /ext/tasks/:id': { sandbox: () => [`${BASE}/ext/tasks/${ownTask}`], trivial: () => [`${BASE}/ext/tasks/${taskId}`] },
  'POST /ext/tasks': {
    sandbox: () => [`${BASE}/ext/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }],
    trivial: () => [`${BASE}/ext/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }],
  },
};

const server = setupServer();
server.listen({ onUnhandledRequest: 'error' });

/** Sequential fetches for `seconds`; µs per request. */
async function timeFetches(args) {
  const [url, init = {}] = args;
  const options = { ...init, headers: { ...init.headers, authorization: `Bearer ${key}` } };
  for (let i = 0; i < 50; i++) await (await fetch(url, options)).text(); // warm-up
  let n = 0;
  const t = performance.now();
  const until = t + seconds * 1000;
  while (performance.now() < until) {
    const res = await fetch(url, options);
    await res.text();
    if (res.status >= 300) throw new Error(`${url} answered ${res.status}`);
    n++;
  }
  return ((performance.now() - t) * 1000) / n;
}

const results = {};
for (const name of Object.keys(requests)) results[name] = { sandbox: [], trivial: [] };
for (let round = 0; round < rounds; round++) {
  for (const [name, variants] of Object.entries(requests)) {
    const order = round % 2 === 0 ? ['sandbox', 'trivial'] : ['trivial', 'sandbox'];
    for (const variant of order) {
      server.resetHandlers(...(variant === 'sandbox' ? sandbox.handlers : trivial));
      results[name][variant].push(await timeFetches(variants[variant]()));
    }
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

process.stdout.write(`${JSON.stringify({
  fetch: Object.fromEntries(Object.entries(results).map(([name, r]) => [name, { sandbox: median(r.sandbox), trivial: median(r.trivial) }])),
  resetMs,
  createMs,
})}\n`);
