/**
 * The inspector's charts, computed from what the sandbox keeps (the request journal, the tasks, the accounts) and
 * stamped with the sandbox clock: a manual clock gives the same series every run. Times are epoch seconds (uPlot's x).
 */

export interface TimelineInput {
  now: number;
  requests: { time: string; status: number; accountId: string | null }[];
  tasks: {
    account_id: string;
    status: string;
    created_at: string | null;
    started_at: string | null;
    completed_at: string | null;
    usage: { cost_usd: number };
  }[];
  accounts: { id: string; balance_usd: number; held_usd: number; limits: { rpm: number } }[];
}

export interface Timeline {
  /** Seconds per point. */
  step: number;
  x: number[];
  /** Requests per second by status class. */
  requests: Record<'2xx' | '4xx' | '429' | '5xx', number[]>;
  /** Requests in the trailing 60 s as a percentage of the account's RPM, for the accounts that made requests. */
  rate: Record<string, number[]>;
  /** Accounts that made requests but are left out of `rate` (the busiest are shown; those at 100 % always). */
  rate_hidden: number;
  /** USD over time per account with tasks: `balance` and `held`. */
  money: Record<string, { balance: number[]; held: number[] }>;
  /** Tasks in each state at each point. */
  tasks: Record<'queued' | 'running' | 'completed' | 'failed', number[]>;
}

const POINTS = 120;
const WINDOW_MS = 60_000;
const MAX_ACCOUNTS = 6;

const ms = (iso: string | null) => (iso === null ? Infinity : Date.parse(iso));
const round = (usd: number) => Math.round(usd * 1e6) / 1e6;

interface RequestPoint {
  at: number;
  status: number;
  accountId: string | null;
}
type TaskSpan = TimelineInput['tasks'][number] & { created: number; started: number; ended: number };

/** The points of the charts: `count` ends, `stepMs` apart, the last at the sandbox clock's now. */
interface Grid {
  now: number;
  stepMs: number;
  count: number;
  ends: number[];
}

/** Whole seconds per point, at most POINTS points, from the oldest request or task (or a minute ago) to now. */
function gridOf(now: number, requests: RequestPoint[], tasks: TaskSpan[]): Grid {
  let start = now - 60_000;
  for (const r of requests) if (r.at < start) start = r.at;
  for (const t of tasks) if (t.created < start) start = t.created;
  const stepMs = Math.max(1, Math.ceil((now - start) / POINTS / 1000)) * 1000;
  const count = Math.min(POINTS, Math.ceil((now - start) / stepMs) + 1);
  return { now, stepMs, count, ends: Array.from({ length: count }, (_, i) => now - (count - 1 - i) * stepMs) };
}

const zeros = (g: Grid) => new Array<number>(g.count).fill(0);

/** The first point whose time is at or after `at` (`count` when none is). */
const firstPoint = (g: Grid, at: number) =>
  at === Infinity ? g.count : Math.min(g.count, Math.max(0, g.count - 1 - Math.floor((g.now - at) / g.stepMs)));

/** Adds `d` to point `i` of a series; a point past its end (`count`: never) changes nothing. */
function addAt(series: number[], i: number, d: number): void {
  const value = series[i];
  if (value !== undefined) series[i] = value + d;
}

/** A running sum of the deltas: the value at each point. */
function cumulative(deltas: number[]): number[] {
  let sum = 0;
  return deltas.map((d) => (sum += d));
}

/** How many of the sorted `times`, counting on from index `from`, are ≤ `limit`. */
function countUpTo(times: number[], from: number, limit: number): number {
  let i = from;
  let t = times[i];
  while (t !== undefined && t <= limit) t = times[++i];
  return i;
}

/** Requests per second by status class. */
function requestSeries(g: Grid, requests: RequestPoint[]): Timeline['requests'] {
  const byStatus = { '2xx': zeros(g), '4xx': zeros(g), '429': zeros(g), '5xx': zeros(g) };
  for (const r of requests) {
    if (r.at > g.now) continue;
    const cls = r.status === 429 ? '429' : r.status >= 500 || r.status === 0 ? '5xx' : r.status >= 400 ? '4xx' : '2xx';
    const i = g.count - 1 - Math.floor((g.now - r.at) / g.stepMs);
    if (i >= 0) addAt(byStatus[cls], i, 1000 / g.stepMs);
  }
  return byStatus;
}

/**
 * Requests in the trailing 60 s at each point as a share of the RPM: two pointers over each account's sorted times.
 * The busiest accounts (by their peak) come first, up to six; an account that reached 100 % is always shown.
 */
function rateSeries(
  g: Grid,
  requests: RequestPoint[],
  accounts: TimelineInput['accounts'],
): Pick<Timeline, 'rate' | 'rate_hidden'> {
  const rpm = new Map(accounts.map((a) => [a.id, a.limits.rpm]));
  const times = new Map<string, number[]>();
  for (const r of requests) {
    if (r.accountId === null || !rpm.has(r.accountId)) continue;
    const list = times.get(r.accountId);
    if (list) list.push(r.at);
    else times.set(r.accountId, [r.at]);
  }
  const series: { id: string; values: number[]; peak: number }[] = [];
  for (const [id, list] of times) {
    const limit = rpm.get(id) ?? 1;
    list.sort((a, b) => a - b);
    let lo = 0;
    let hi = 0;
    const values = g.ends.map((end) => {
      hi = countUpTo(list, hi, end);
      lo = countUpTo(list, lo, end - WINDOW_MS);
      return Math.round((1000 * (hi - lo)) / limit) / 10;
    });
    series.push({ id, values, peak: Math.max(0, ...values) });
  }
  series.sort((a, b) => b.peak - a.peak || a.id.localeCompare(b.id));
  const shown = series.filter((s, i) => i < MAX_ACCOUNTS || s.peak >= 100);
  return { rate: Object.fromEntries(shown.map((s) => [s.id, s.values])), rate_hidden: series.length - shown.length };
}

/** Money: each task adds its cost to the balance before it was charged and its hold while it was open (prefix sums). */
function moneySeries(g: Grid, tasks: TaskSpan[], accounts: TimelineInput['accounts']): Timeline['money'] {
  const money: Timeline['money'] = {};
  const withTasks = [...new Set(tasks.map((t) => t.account_id))].slice(0, MAX_ACCOUNTS);
  for (const a of accounts.filter((acc) => withTasks.includes(acc.id))) {
    const own = tasks.filter((t) => t.account_id === a.id);
    const open = own.filter((t) => t.ended > g.now).length;
    // A finished task's hold is taken as its cost; the open ones share the account's holds now.
    const openHold = open === 0 ? 0 : a.held_usd / open;
    const charged = zeros(g);
    const held = zeros(g);
    for (const t of own) {
      const from = firstPoint(g, t.created);
      const to = firstPoint(g, t.ended);
      if (t.status === 'completed' && t.ended <= g.now) {
        addAt(charged, 0, t.usage.cost_usd);
        addAt(charged, to, -t.usage.cost_usd);
      }
      if (from < to) {
        const hold = t.ended > g.now ? openHold : t.usage.cost_usd;
        addAt(held, from, hold);
        addAt(held, to, -hold);
      }
    }
    money[a.id] = {
      balance: cumulative(charged).map((c) => round(a.balance_usd + c)),
      held: cumulative(held).map(round),
    };
  }
  return money;
}

/** Task states: each task adds +1/-1 where it enters and leaves a state; a running sum gives the counts per point. */
function taskSeries(g: Grid, tasks: TaskSpan[]): Timeline['tasks'] {
  const deltas = { queued: zeros(g), running: zeros(g), completed: zeros(g), failed: zeros(g) };
  const add = (state: keyof typeof deltas, from: number, to: number) => {
    if (from >= to) return;
    addAt(deltas[state], from, 1);
    addAt(deltas[state], to, -1);
  };
  for (const t of tasks) {
    const created = firstPoint(g, t.created);
    const started = Math.max(created, firstPoint(g, t.started));
    const ended = Math.max(started, firstPoint(g, t.ended));
    add('queued', created, started);
    add('running', started, ended);
    add(t.status === 'failed' ? 'failed' : 'completed', ended, g.count);
  }
  return {
    queued: cumulative(deltas.queued),
    running: cumulative(deltas.running),
    completed: cumulative(deltas.completed),
    failed: cumulative(deltas.failed),
  };
}

export function timeline(input: TimelineInput): Timeline {
  const requests = input.requests.map((r) => ({ at: Date.parse(r.time), status: r.status, accountId: r.accountId }));
  const tasks = input.tasks.map((t) => ({
    ...t,
    created: ms(t.created_at),
    started: ms(t.started_at),
    ended: ms(t.completed_at),
  }));
  const g = gridOf(input.now, requests, tasks);
  return {
    step: g.stepMs / 1000,
    x: g.ends.map((e) => e / 1000),
    requests: requestSeries(g, requests),
    ...rateSeries(g, requests, input.accounts),
    money: moneySeries(g, tasks, input.accounts),
    tasks: taskSeries(g, tasks),
  };
}
