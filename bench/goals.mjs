/**
 * The bench's goals, judged on one run's results: a row per goal whose case ran, with the measured value, the goal and
 * whether it is met (undefined: a figure to keep an eye on, with no bound). Only this build (`sandbox`) is judged.
 * With --baseline, the guard: no line a user feels (server CPU per request, `sandbox.fetch`, the cold start,
 * `clock.advance`, heap per task) worse than the baseline's by more than 10 % in the same run.
 */
import { fmt, median, pairedRatio } from './lib.mjs';

const SANDBOX = 'sandbox';
const BARE = 'node:http';

/** The name of the server case's `--spin` stand-in of `us` µs (bench/targets/fixed-door.mjs). */
export const spinServer = (us) => `sandbox door, fixed answers + ${us} µs`;

export function benchGoals(results, { connections, spins = [], baseline }) {
  return [
    ...serverGoals(results.server, connections, spins),
    ...stallGoals(results.stall),
    ...coldGoals(results.cold),
    ...inProcessGoals(results.inProcess),
    ...memoryGoals(results.memory),
    ...(baseline === undefined ? [] : baselineGoals(results, baseline)),
  ];
}

/** The most a line a user feels may get worse against the baseline build, measured in the same run. */
const WORSE_AT_MOST = 1.1;

/** This build ÷ the baseline on each line a user feels (lower is better): ≤ 1.10. */
function baselineGoals(results, baseline) {
  const rows = [];
  const row = (measure, ratio) => {
    if (!Number.isFinite(ratio)) return;
    rows.push({
      measure: `${measure}, this build ÷ ${baseline}`,
      value: fmt.ratio(ratio),
      goal: `≤ ${WORSE_AT_MOST.toFixed(2)}`,
      met: ratio <= WORSE_AT_MOST,
    });
  };
  const other = `sandbox@${baseline}`;
  const otherBytes = `node:http, bytes of ${baseline}`;
  for (const [route, byConnections] of Object.entries(results.server?.results ?? {}))
    for (const [c, byServer] of Object.entries(byConnections)) {
      if (!byServer[SANDBOX] || !byServer[other]) continue;
      row(`server CPU per request, ${route}, ${c} conn.`, pairedRatio(byServer[other], byServer[SANDBOX], 'cpuUs'));
      // Shown beside the judged row, not judged: it carries the noise of two more servers' rounds.
      if (byServer[BARE] && byServer[otherBytes])
        rows.push({
          measure: `server CPU per request at equal bytes, ${route}, ${c} conn., this build ÷ ${baseline}`,
          value: fmt.ratio(equalBytesRatio(byServer[SANDBOX], byServer[other], byServer[BARE], byServer[otherBytes])),
          goal: "(the answers' bytes taken out, as node:http pays them; not judged)",
          met: undefined,
        });
    }
  for (const [request, v] of Object.entries(results.inProcess?.fetch ?? {}))
    if (v.fetch !== undefined && v.baselineFetch !== undefined)
      row(`\`sandbox.fetch\`, ${request}`, v.fetch / v.baselineFetch);
  const cold = results.cold ?? {};
  const cli = cold['node dist/cli.js'];
  const otherCli = cold[`node ${baseline}/dist/cli.js`];
  if (cli?.length && otherCli?.length)
    row('cold start, launch → first 200', medianOf(cli, 'wall') / medianOf(otherCli, 'wall'));
  for (const r of results.memory?.filter((m) => m.name === SANDBOX) ?? []) {
    const b = results.memory.find((m) => m.name === other && m.tasks === r.tasks);
    if (!b) continue;
    const tasks = r.tasks.toLocaleString('en-US');
    row(`\`clock.advance('1m')\` over ${tasks} tasks`, r.advanceMs / b.advanceMs);
    row(`heap per queued task, ${tasks} tasks`, r.heapPerQueuedTask / b.heapPerQueuedTask);
  }
  return rows;
}

const medianOf = (runs, key) => median(runs.map((r) => r[key]));

/**
 * This build ÷ the baseline in server CPU per request, with what their answers' bytes cost taken out: each round's
 * ratio divided by node:http's ratio serving the same two sets of bytes in that round; the median of the rounds. The
 * two builds answer with different bytes (this build's results and agents are longer), which node:http alone pays too.
 */
function equalBytesRatio(runs, baselineRuns, bareRuns, bareBaselineRuns) {
  const n = Math.min(runs.length, baselineRuns.length, bareRuns.length, bareBaselineRuns.length);
  const ratios = [];
  for (let i = 0; i < n; i++)
    ratios.push(runs[i].cpuUs / baselineRuns[i].cpuUs / (bareRuns[i].cpuUs / bareBaselineRuns[i].cpuUs));
  return median(ratios);
}

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
      goal: '≤ 500 B',
      met: r.heapPerQueuedTask <= 500,
    });
    if (r.tasks === 100_000) {
      rows.push(
        {
          measure: "`clock.advance('1m')` over 100,000 queued tasks",
          value: `${fmt.ms(r.advanceMs)} ms`,
          goal: '≤ 150 ms',
          met: r.advanceMs <= 150,
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
