/**
 * Where a request's CPU goes in the sandbox's node server: `sandbox.listen()` in this process under autocannon load
 * (a separate process), with the time spent in the request core (`sandbox.handle`, timed around each call), the
 * main thread's GC pauses (perf_hooks), and the CPU of the main thread and of V8's helper threads (Linux
 * /proc/self/task). Mode `core`: the sandbox as it is. Mode `fixed`: the same server with the core replaced by the
 * sample answers (as bench/targets/fixed-door.mjs), so that the difference between the two is what the core's work
 * costs, inside and outside `handle` (the garbage it leaves, the memory it touches).
 * Usage: node bench/cases/breakdown.mjs '{"route":"post","mode":"core","seconds":5,"connections":50}'  →  one JSON line.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { load } from '../lib.mjs';
import { adminKey, fixedCore, sampleAnswers, taskBody, unlimit } from '../fixtures.mjs';

const { route, mode, seconds = 5, connections = 50, dist = 'dist' } = JSON.parse(process.argv[2] ?? '{}');
const { createSandbox } = await import(pathToFileURL(resolve(dist, 'index.js')).href);

const sandbox = createSandbox();
unlimit(sandbox);
const key = adminKey(sandbox);
const body = taskBody(sandbox);
const post = route === 'post';
const path = post ? '/ext/tasks' : '/ext/agents';

const core = sandbox.handle.bind(sandbox);
let inCore = 0;
if (mode === 'fixed') {
  // The same stand-in as bench/targets/fixed-door.mjs: node:http's work (the Bearer check, a POST's JSON parsed).
  sandbox.handle = fixedCore(sampleAnswers());
} else {
  sandbox.handle = (req) => {
    const t = performance.now();
    const out = core(req);
    inCore += performance.now() - t;
    return out;
  };
}

const server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
const options = {
  url: `${server.url}/api/v1${path}`,
  method: post ? 'POST' : 'GET',
  headers: { authorization: `Bearer ${key}`, ...(post ? { 'content-type': 'application/json' } : {}) },
  body: post ? body : undefined,
  connections,
};

/** CPU ticks (1/100 s) of each thread of this process: utime + stime (empty where there is no Linux /proc). */
function threadTicks() {
  const ticks = new Map();
  if (!existsSync('/proc/self/task')) return ticks;
  for (const tid of readdirSync('/proc/self/task')) {
    const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
    ticks.set(tid, Number(fields[11]) + Number(fields[12]));
  }
  return ticks;
}

// Warm-up: the code compiled, the journal full.
await load({ ...options, seconds: Math.min(2, seconds) });
inCore = 0;
let gcMs = 0;
const gcObserver = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
});
gcObserver.observe({ entryTypes: ['gc'] });
const ticks0 = threadTicks();
const cpu0 = process.cpuUsage();
const r = await load({ ...options, seconds });
const cpu = process.cpuUsage(cpu0);
const ticks1 = threadTicks();
gcObserver.disconnect();
await server.close();

const main = String(process.pid);
const perThread = ticks1.size > 0;
let otherTicks = 0;
for (const [tid, t] of ticks1) if (tid !== main) otherTicks += t - (ticks0.get(tid) ?? 0);
const perRequest = (us) => us / r.requests;
process.stdout.write(
  `${JSON.stringify({
    route,
    mode,
    requests: r.requests,
    rps: r.rps,
    nonOk: r.requests - r.ok,
    cpuUs: perRequest(cpu.user + cpu.system),
    sysUs: perRequest(cpu.system),
    mainUs: perThread ? perRequest(((ticks1.get(main) ?? 0) - (ticks0.get(main) ?? 0)) * 10_000) : null,
    otherThreadsUs: perThread ? perRequest(otherTicks * 10_000) : null,
    coreUs: mode === 'fixed' ? 0 : perRequest(inCore * 1000),
    gcPauseUs: perRequest(gcMs * 1000),
  })}\n`,
);
