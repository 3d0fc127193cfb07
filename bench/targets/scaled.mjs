/**
 * Builds a sandbox with a large state through the library: N tasks created through the core (then finished by moving
 * the clock), K extra keys through `sandbox.keys.create`; times the three requests through the core in-process; writes
 * the state to FILE for `agent-work-sandbox --state FILE` to serve. Prints one JSON line: { key, taskId, buildMs, core }.
 * Usage: node bench/targets/scaled.mjs '{"tasks":100000,"keys":10000,"samples":2000,"file":"/tmp/x.json"}'
 */
import { writeFileSync } from 'node:fs';
import { createSandbox } from '../../dist/index.js';
import { adminKey, call, taskBody, unlimit } from '../fixtures.mjs';

const { tasks, keys, samples = 2000, file } = JSON.parse(process.argv[2] ?? '{}');
const built = performance.now();
// taskRetention: where the sandbox bounds the finished tasks it keeps, this state keeps them all.
const sandbox = createSandbox({ taskRetention: Infinity });
unlimit(sandbox);
unlimit(sandbox, 'acc_enterprise');
const key = adminKey(sandbox);
const body = taskBody(sandbox);
for (let i = 0; i < keys; i++)
  sandbox.keys.create({ accountId: 'acc_enterprise', scopes: ['read:agents', 'read:tasks'] });
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
globalThis.gc?.(); // the build's garbage is not the requests' cost
const core = {
  'GET /ext/agents': perRequest('GET', '/ext/agents'),
  'GET /ext/tasks/:id': perRequest('GET', `/ext/tasks/${taskId}`),
  'POST /ext/tasks': perRequest('POST', '/ext/tasks', body),
};
writeFileSync(file, JSON.stringify(sandbox.snapshot()));
process.stdout.write(`${JSON.stringify({ key, taskId, buildMs, core })}\n`);
