/** Process helpers of the bench: spawn a server and wait for its URL, run a load, read a process's RSS. */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Spawns a process in its own process group and resolves with the first stdout line that `ready` accepts.
 * @returns { child, line, stop() }.
 */
export function start(command, args, { ready = () => true, timeoutMs = 60_000, cwd = ROOT } = {}) {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  };
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => (stop(), reject(new Error(`${command} ${args.join(' ')}: no ready line in ${timeoutMs} ms. ${err}`))),
      timeoutMs,
    );
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      for (const line of out.split('\n').slice(0, -1)) {
        if (ready(line)) {
          clearTimeout(timer);
          child.stdout.removeAllListeners('data');
          child.stdout.resume();
          return resolve({ child, line, stop });
        }
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited with ${code} before it was ready. ${err}`));
    });
  });
}

/** Runs a child to completion and parses the last line of its stdout as JSON. */
export function runJson(args, nodeFlags = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeFlags, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`node ${args[0]} exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop()));
    });
  });
}

/** One load run from a separate process (autocannon): { rps, p50, p99, ok, statuses, … }. */
export function load(options) {
  return runJson(['bench/load.mjs', JSON.stringify(options)]);
}

/** Resident set size of a process, in MiB (Linux /proc). */
export function rssOf(pid) {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

export { median, pairedRatio } from './stats.mjs';

/** A Markdown table. */
export function table(head, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

export const fmt = {
  int: (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '–'),
  ms: (x) => (Number.isFinite(x) ? (x < 10 ? x.toFixed(2) : x.toFixed(0)) : '–'),
  us: (x) => (Number.isFinite(x) ? x.toFixed(0) : '–'),
  ratio: (x) => (Number.isFinite(x) ? x.toFixed(2) : '–'),
  mb: (x) => (Number.isFinite(x) ? x.toFixed(0) : '–'),
};

/** CPU time a process has used so far, in ms (Linux /proc/PID/schedstat: ns on CPU). */
export function cpuMsOf(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return NaN;
  }
}

/**
 * Waits until a server is idle again: its main thread used under 2 % of a core over the last 250 ms, or `maxMs` have
 * passed. A sandbox goes on settling the tasks of a POST load for seconds after it (their start and end moves, default
 * 3–7.5 s after creation): that work belongs to the load that created the tasks, not to the next server's round.
 */
export async function settled(pid, maxMs = 10_000) {
  const until = performance.now() + maxMs;
  let last = cpuMsOf(pid);
  while (performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = cpuMsOf(pid);
    if (!(now - last > 5)) return;
    last = now;
  }
}
