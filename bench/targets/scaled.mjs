/**
 * The sandbox with a large state, served by `sandbox.listen()` (the CLI's server): N tasks created through the core
 * (then finished by moving the clock), K extra keys through `sandbox.keys.create`. Before listening it times the
 * three requests through the core in-process. Prints one JSON line: { url, key, taskId, buildMs, rssMB, core }.
 * Usage: node bench/targets/scaled.mjs '{"tasks":100000,"keys":10000,"samples":2000}'
 */
import { createSandbox } from '../../dist/index.js';
import { adminKey, call, taskBody, unlimit } from '../fixtures.mjs';

const { tasks, keys, samples = 2000 } = JSON.parse(process.argv[2] ?? '{}');
const built = performance.now();
const sandbox = createSandbox();
unlimit(sandbox);
unlimit(sandbox, 'acc_enterprise');
const key = adminKey(sandbox);
const body = taskBody(sandbox);
for (let i = 0; i < keys; i++) sandbox.keys.create({ accountId: 'acc_enterprise', scopes: ['read:agents', 'read:tasks'] });
let taskId;
for (let i = 0; i < tasks; i++) {
  const res = call(sandbox, key, 'POST', '/ext/tasks', body);
  if (res.status !== 201) throw new Error(`POST /ext/tasks answered ${res.status}: ${res.body}`);
  if (i === Math.floor(tasks / 2)) taskId = JSON.parse(res.body).id;
}
// Every task ends (results generated), as in a long-running demo.
sandbox.clock.advance('1m');
const buildMs = performance.now() - built;

/** µs per request through `sandbox.handle`, median of 5 batches. */
function perRequest(method, path, payload) {
  const batch = Math.max(1, Math.floor(samples / 5));
  const runs = [];
  for (let b = 0; b < 5; b++) {
    const t = performance.now();
    for (let i = 0; i < batch; i++) call(sandbox, key, method, path, payload);
    runs.push(((performance.now() - t) * 1000) / batch);
  }
  return runs.sort((a, b) => a - b)[2];
}
const core = {
  'GET /ext/agents': perRequest('GET', '/ext/agents'),
  'GET /ext/tasks/:id': perRequest('GET', `/ext/tasks/${taskId}`),
  'POST /ext/tasks': perRequest('POST', '/ext/tasks', body),
};
globalThis.gc?.();
const rssMB = process.memoryUsage().rss / 2 ** 20;
const server = await sandbox.listen({ port: 0 });
process.stdout.write(`${JSON.stringify({ url: `${server.url}/api/v1`, key, taskId, buildMs, rssMB, core })}\n`);
