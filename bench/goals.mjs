/**
 * Issue 16's goals ("Close to the limit"), judged on one run's results: a row per goal whose case ran, with the
 * measured value, the goal and whether it is met (undefined: a figure the issue asks to keep, with no bound).
 * Only this build (`sandbox`) is judged; a --baseline build is not.
 */
import { fmt, median, pairedRatio } from './lib.mjs';

const SANDBOX = 'sandbox';
const BARE = 'node:http';

/** The name of the server case's `--spin` stand-in of `us` µs (bench/targets/fixed-door.mjs). */
export const spinServer = (us) => `sandbox door, fixed answers + ${us} µs`;

export function issue16Goals(results, { connections, spins = [] }) {
  return [
    ...serverGoals(results.server, connections, spins),
    ...stallGoals(results.stall),
    ...coldGoals(results.cold),
    ...inProcessGoals(results.inProcess),
    ...memoryGoals(results.memory),
  ];
}

const medianOf = (runs, key) => median(runs.map((r) => r[key]));

function serverGoals(server, connections, spins) {
  if (!server) return [];
  const rows = [];
  const at = (route, c) => server.results[route]?.[c];
  const ratioRow = (route, what, goal) => {
    const byServer = at(route, connections);
    if (!byServer?.[BARE]) return;
    if (byServer[SANDBOX]) {
      // Judged round by round (each round's pair ran under the same machine load); the ratio of the medians beside it.
      const ratio = pairedRatio(byServer[SANDBOX], byServer[BARE], 'rps');
      const ofMedians = medianOf(byServer[SANDBOX], 'rps') / medianOf(byServer[BARE], 'rps');
      rows.push({
        measure: `${what}, ${connections} connections (median of the rounds' ratios)`,
        value: `${fmt.ratio(ratio)} (ratio of the medians ${fmt.ratio(ofMedians)})`,
        goal: `≥ ${goal.toFixed(2)}`,
        met: ratio >= goal,
      });
    }
    // `--spin`: each stand-in core of N µs beside the goal, not judged (what a core of that cost could reach, so that
    // the ratio goal reads as a budget in µs).
    for (const us of spins) {
      const runs = byServer[spinServer(us)];
      if (!runs) continue;
      rows.push({
        measure: `${route} req/s ÷ node:http, ${connections} connections, for a stand-in core of ${us} µs of CPU a request`,
        value: fmt.ratio(pairedRatio(runs, byServer[BARE], 'rps')),
        goal: `(what a core of ${us} µs could reach; the goal is ≥ ${goal.toFixed(2)})`,
        met: undefined,
      });
    }
  };
  ratioRow('GET /ext/agents', 'GET /ext/agents req/s ÷ node:http', 0.9);
  ratioRow('POST /ext/tasks', 'POST /ext/tasks req/s ÷ node:http (which parses the JSON)', 0.7);
  for (const [c, byServer] of Object.entries(server.results['POST /ext/tasks'] ?? {})) {
    if (!byServer[SANDBOX] || !byServer[BARE]) continue;
    const p99 = medianOf(byServer[SANDBOX], 'p99');
    const limit = 2 * medianOf(byServer[BARE], 'p99') + 1;
    rows.push({
      measure: `POST /ext/tasks p99, ${c} connection${c === '1' ? '' : 's'}`,
      value: `${fmt.ms(p99)} ms`,
      goal: `≤ 2 × node:http's + 1 ms = ${fmt.ms(limit)} ms`,
      met: p99 <= limit,
    });
  }
  return rows;
}

function stallGoals(stall) {
  const sandbox = stall?.find((r) => r.name === SANDBOX);
  if (!sandbox) return [];
  return [
    {
      measure: 'first request after idle, following a POST load',
      value: `${fmt.ms(sandbox.firstMs)} ms`,
      goal: '≤ 20 ms',
      met: sandbox.firstMs <= 20,
    },
    {
      measure: 'CLI RSS after the POST load',
      value: `${fmt.mb(sandbox.rssLoadMB)} MiB`,
      goal: '≤ 150 MiB',
      met: sandbox.rssLoadMB <= 150,
    },
  ];
}

function coldGoals(cold) {
  const cli = cold?.['node dist/cli.js'];
  const bare = cold?.['bare node:http (reference)'];
  if (!cli?.length || !bare?.length) return [];
  const cliMs = medianOf(cli, 'wall');
  const ratio = cliMs / medianOf(bare, 'wall');
  const rows = [
    {
      measure: 'cold start, launch → first 200, ÷ a minimal node:http server',
      value: fmt.ratio(ratio),
      goal: '≤ 1.4',
      met: ratio <= 1.4,
    },
  ];
  const npx = cold['npx agent-work-sandbox'];
  if (npx?.length) {
    const npxMs = medianOf(npx, 'wall');
    rows.push({
      measure: '`npx agent-work-sandbox` in this repository',
      value: `${fmt.int(npxMs)} ms`,
      goal: `≤ node dist/cli.js + 300 ms = ${fmt.int(cliMs + 300)} ms`,
      met: npxMs <= cliMs + 300,
    });
  }
  return rows;
}

function inProcessGoals(inProcess) {
  if (!inProcess) return [];
  const rows = [];
  for (const [request, v] of Object.entries(inProcess.fetch)) {
    rows.push({
      measure: `through msw ÷ a trivial msw handler, ${request}`,
      value: fmt.ratio(v.sandbox / v.trivial),
      goal: 'keep 1.0',
      met: undefined,
    });
    if (v.fetch !== undefined)
      rows.push({
        measure: `\`sandbox.fetch\` ÷ a trivial msw handler, ${request}`,
        value: fmt.ratio(v.fetch / v.trivial),
        goal: '≤ 0.20',
        met: v.fetch / v.trivial <= 0.2,
      });
  }
  return rows;
}

function memoryGoals(memory) {
  const rows = [];
  for (const r of memory?.filter((m) => m.name === SANDBOX) ?? []) {
    const tasks = r.tasks.toLocaleString('en-US');
    rows.push({
      measure: `heap per queued task, ${tasks} tasks`,
      value: `${fmt.int(r.heapPerQueuedTask)} B`,
      goal: '≤ 300 B',
      met: r.heapPerQueuedTask <= 300,
    });
    if (r.tasks === 100_000) {
      rows.push(
        {
          measure: "`clock.advance('1m')` over 100,000 queued tasks",
          value: `${fmt.ms(r.advanceMs)} ms`,
          goal: '≤ 50 ms',
          met: r.advanceMs <= 50,
        },
        {
          measure: 'RSS in-process with 100,000 tasks, right after the load (at rest)',
          value: `${fmt.mb(r.rssMB)} MiB (${fmt.mb(r.restRssMB)})`,
          goal: '≤ 120 MiB',
          met: r.rssMB <= 120,
        },
      );
    }
    rows.push({
      measure: `memory given back when retention drops tasks, ${tasks} tasks`,
      value: `${r.retention.queuedMB.toFixed(0)} → ${r.retention.afterDropMB.toFixed(0)} MiB`,
      goal: 'goes down',
      met: r.retention.afterDropMB < r.retention.queuedMB,
    });
  }
  return rows;
}
