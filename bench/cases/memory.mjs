/**
 * Memory and catch-up of stored tasks, in-process (run with --expose-gc): N tasks created through the core under a
 * manual clock; heap per queued task, heap per finished task, `clock.advance('1m')` over them all (every move settled),
 * RSS (right after, and at rest: 6 s later, one more GC). With `"part":"retention"`: the same load under the default
 * retention bound, and the heap once the finished tasks beyond it are dropped. Each part runs in its own process: a
 * sandbox of a million tasks released just before would still be collected while the second part measures.
 * Usage: node --expose-gc bench/cases/memory.mjs '{"tasks":100000,"dist":"dist","part":"stored"}'  →  one JSON line.
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { adminKey, call, taskBody, unlimit } from '../fixtures.mjs';

const { tasks: N, dist = 'dist', restMs = 6000, part = 'stored' } = JSON.parse(process.argv[2] ?? '{}');
const { createSandbox } = await import(pathToFileURL(resolve(dist, 'index.js')).href);
const gc = () => (globalThis.gc(), globalThis.gc(), process.memoryUsage());

function build(taskRetention) {
  const sandbox = createSandbox({ clock: 'manual', taskRetention });
  unlimit(sandbox);
  const key = adminKey(sandbox);
  const body = taskBody(sandbox);
  // Warm-up: the code paths compiled, the journal full, before the baseline heap is read.
  for (let i = 0; i < 2000; i++) call(sandbox, key, 'POST', '/ext/tasks', body);
  sandbox.clock.advance('1m');
  return { sandbox, key, body };
}

/** Heap per queued and per finished task, `clock.advance` over all of them, RSS right after and at rest. */
async function stored() {
  const { sandbox, key, body } = build(Infinity);
  const base = gc().heapUsed;
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const res = call(sandbox, key, 'POST', '/ext/tasks', body);
    if (res.status !== 201) throw new Error(`POST answered ${res.status}: ${res.body}`);
  }
  const postUs = ((performance.now() - t0) * 1000) / N;
  const queued = gc();
  const t1 = performance.now();
  const c1 = process.cpuUsage();
  sandbox.clock.advance('1m');
  const advanceMs = performance.now() - t1;
  const advanceCpu = process.cpuUsage(c1);
  const finished = gc();
  // At rest: V8 gives its young generation back at a GC only once allocation has slowed (its throughput is averaged
  // over the last 5 s), so a process that holds the tasks and has gone quiet (a test runner between files) sits lower.
  await new Promise((r) => setTimeout(r, restMs));
  const rest = gc();
  // The sandbox is read after the at-rest GC, so that its tasks are still held when that RSS is taken.
  if (sandbox.clock.now() < 0) throw new Error('unreachable');
  return {
    tasks: N,
    postUs,
    heapPerQueuedTask: (queued.heapUsed - base) / N,
    heapPerFinishedTask: (finished.heapUsed - base) / N,
    heapQueuedMB: (queued.heapUsed - base) / 2 ** 20,
    advanceMs,
    // CPU of the process (GC threads included) during the advance: steadier than wall time on a loaded machine.
    advanceCpuMs: (advanceCpu.user + advanceCpu.system) / 1000,
    rssMB: finished.rss / 2 ** 20,
    restRssMB: rest.rss / 2 ** 20,
  };
}

/** The heap of N tasks under the default retention bound (10,000 finished tasks kept), queued and once they end. */
function retention() {
  const kept = build(undefined);
  const keptBase = gc().heapUsed;
  for (let i = 0; i < N; i++) call(kept.sandbox, kept.key, 'POST', '/ext/tasks', kept.body);
  const keptQueued = gc().heapUsed;
  kept.sandbox.clock.advance('1m');
  const keptAfter = gc().heapUsed;
  return {
    tasks: N,
    retention: { queuedMB: (keptQueued - keptBase) / 2 ** 20, afterDropMB: (keptAfter - keptBase) / 2 ** 20 },
  };
}

process.stdout.write(`${JSON.stringify(part === 'retention' ? retention() : await stored())}\n`);
