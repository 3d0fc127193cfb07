#!/usr/bin/env node
/**
 * Soak: drives the CLI server (`node dist/cli.js`, real clock) with a fixed number of mixed requests and prints the
 * server's resident memory over time, so that one can see it level off: the journal, the idempotency store, the
 * list-page cache and the stored tasks (retention bound) are all bounded.
 *
 *   node scripts/soak.mjs [--requests 200000] [--concurrency 32] [--max-seconds 300] [--task-retention N]
 *
 * Needs `npx tsup` first. Linux only for RSS (reads /proc/PID/status).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '200000' },
    concurrency: { type: 'string', default: '32' },
    'max-seconds': { type: 'string', default: '300' },
    'task-retention': { type: 'string' },
  },
});
const total = Number(values.requests);
const concurrency = Number(values.concurrency);
const deadline = Date.now() + Number(values['max-seconds']) * 1000;

const args = ['dist/cli.js', '--port', '0', '--quiet'];
if (values['task-retention']) args.push('--task-retention', values['task-retention']);
const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
const origin = await new Promise((resolve, reject) => {
  let out = '';
  child.stdout.on('data', (c) => {
    out += c;
    const m = /(http:\/\/\S+)\/api\/v1/.exec(out);
    if (m) resolve(m[1]);
  });
  child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
});

const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
function call(method, path, headers = {}, body) {
  return new Promise((resolve, reject) => {
    const h = { ...headers };
    if (body !== undefined) {
      h['content-type'] = 'application/json';
      h['content-length'] = Buffer.byteLength(body);
    }
    const req = request(`${origin}${path}`, { method, headers: h, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
const rssMb = () => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

const keys = JSON.parse((await call('GET', '/__sandbox/keys')).text).data;
const key = keys.find((k) => k.account_id === 'acc_demo' && k.label === 'admin').key;
await call(
  'PATCH',
  '/__sandbox/accounts/acc_demo',
  {},
  JSON.stringify({ balance_usd: 1_000_000, limits: { rpm: 1_000_000_000, tpm: 1_000_000_000_000 } }),
);
const agents = JSON.parse((await call('GET', '/__sandbox/state')).text)
  .agents.filter((a) => a.status === 'available')
  .map((a) => a.id);
const auth = { authorization: `Bearer ${key}` };

const recentTasks = [];
const statuses = new Map();
let sent = 0;
let done = 0;
let n = 0;
async function one() {
  const i = n++;
  const r = i % 20;
  let res;
  if (r < 8) res = await call('GET', `/api/v1/ext/agents?limit=${1 + (i % 20)}`, auth);
  else if (r < 11) res = await call('GET', `/api/v1/ext/agents/${agents[i % agents.length]}`, auth);
  else if (r < 15) {
    const headers = r === 14 ? { ...auth, 'idempotency-key': `soak-${i}` } : auth;
    res = await call(
      'POST',
      '/api/v1/ext/tasks',
      headers,
      JSON.stringify({
        agent_id: agents[i % agents.length],
        description: `soak task ${i}: ${'lorem ipsum '.repeat(i % 16)}`,
      }),
    );
    if (res.status === 201) {
      recentTasks.push(JSON.parse(res.text).id);
      if (recentTasks.length > 1000) recentTasks.shift();
    }
  } else if (r < 18)
    res = await call(
      'GET',
      `/api/v1/ext/tasks/${recentTasks[(i * 7919) % Math.max(1, recentTasks.length)] ?? 'task_none'}`,
      auth,
    );
  else if (r < 19) res = await call('GET', '/api/v1/ext/usage', auth);
  else res = await call('GET', '/api/v1/ext/agents', { authorization: 'Bearer ak_wrong' });
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  done += 1;
}

const t0 = Date.now();
const samples = [];
const sample = () => samples.push({ s: (Date.now() - t0) / 1000, done, rss: rssMb() });
sample();
console.log(`soak: ${total} requests, concurrency ${concurrency}, against ${origin} (pid ${child.pid})`);
console.log('   t(s)   requests   req/s   RSS (MB)');
let last = { s: 0, done: 0 };
const timer = setInterval(() => {
  sample();
  const x = samples.at(-1);
  console.log(
    `${x.s.toFixed(1).padStart(7)} ${String(x.done).padStart(10)} ${String(Math.round((x.done - last.done) / (x.s - last.s))).padStart(7)} ${x.rss.toFixed(1).padStart(10)}`,
  );
  last = x;
}, 2000);

await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (sent < total && Date.now() < deadline) {
      sent += 1;
      await one();
    }
  }),
);
clearInterval(timer);
sample();
const seconds = (Date.now() - t0) / 1000;
const tasksStored = JSON.parse((await call('GET', '/__sandbox/tasks')).text).data.length;
const journal = JSON.parse((await call('GET', '/__sandbox/requests')).text).data.length;
const warm = samples.filter((x) => x.done >= done / 4);
const warmRss = warm[0]?.rss ?? NaN;
const maxAfterWarm = Math.max(...warm.map((x) => x.rss));
const end = samples.at(-1).rss;
console.log('');
console.log(
  `requests:      ${done} in ${seconds.toFixed(1)} s (${Math.round(done / seconds)} req/s)${done < total ? ` — stopped at the time bound of ${values['max-seconds']} s` : ''}`,
);
console.log(`statuses:      ${JSON.stringify(Object.fromEntries(statuses))}`);
console.log(
  `RSS:           start ${samples[0].rss.toFixed(1)} MB, after warm-up (25% of requests) ${warmRss.toFixed(1)} MB, max after warm-up ${maxAfterWarm.toFixed(1)} MB, end ${end.toFixed(1)} MB`,
);
console.log(`growth after warm-up: ${(((maxAfterWarm - warmRss) / warmRss) * 100).toFixed(1)} %`);
console.log(
  `stored tasks at the end: ${tasksStored} (retention bound ${values['task-retention'] ?? '10000 (default)'} finished + those still running); journal entries: ${journal}`,
);
agent.destroy();
child.kill('SIGTERM');
