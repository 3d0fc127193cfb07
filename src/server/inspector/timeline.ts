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
  /** USD over time per account with tasks: `balance` and `held`. */
  money: Record<string, { balance: number[]; held: number[] }>;
  /** Tasks in each state at each point. */
  tasks: Record<'queued' | 'running' | 'completed' | 'failed', number[]>;
}

const POINTS = 120;
const WINDOW_MS = 60_000;
const MAX_ACCOUNTS = 6;

const ms = (iso: string | null) => (iso === null ? Infinity : Date.parse(iso));

export function timeline(input: TimelineInput): Timeline {
  const requests = input.requests.map((r) => ({ at: Date.parse(r.time), status: r.status, accountId: r.accountId }));
  const tasks = input.tasks.map((t) => ({
    ...t,
    created: ms(t.created_at),
    started: ms(t.started_at),
    ended: ms(t.completed_at),
  }));
  let start = input.now - 60_000;
  for (const r of requests) if (r.at < start) start = r.at;
  for (const t of tasks) if (t.created < start) start = t.created;
  // Whole seconds per point, at most POINTS points, ending at the sandbox clock's now.
  const stepMs = Math.max(1, Math.ceil((input.now - start) / POINTS / 1000)) * 1000;
  const count = Math.min(POINTS, Math.ceil((input.now - start) / stepMs) + 1);
  const ends = Array.from({ length: count }, (_, i) => input.now - (count - 1 - i) * stepMs);
  const zeros = () => new Array<number>(count).fill(0);
  /** The first point whose time is at or after `at` (`count` when none is). */
  const first = (at: number) =>
    at === Infinity ? count : Math.min(count, Math.max(0, count - 1 - Math.floor((input.now - at) / stepMs)));

  const byStatus = { '2xx': zeros(), '4xx': zeros(), '429': zeros(), '5xx': zeros() };
  const slot = (at: number) => count - 1 - Math.floor((input.now - at) / stepMs);
  for (const r of requests) {
    const i = slot(r.at);
    if (i < 0 || i >= count || r.at > input.now) continue;
    const cls = r.status === 429 ? '429' : r.status >= 500 || r.status === 0 ? '5xx' : r.status >= 400 ? '4xx' : '2xx';
    byStatus[cls][i]! += 1000 / stepMs;
  }

  // Requests in the trailing 60 s at each point: two pointers over each account's sorted times.
  const rate: Record<string, number[]> = {};
  const rpm = new Map(input.accounts.map((a) => [a.id, a.limits.rpm]));
  const active = [
    ...new Set(requests.map((r) => r.accountId).filter((id): id is string => id !== null && rpm.has(id))),
  ].slice(0, MAX_ACCOUNTS);
  for (const id of active) {
    const times = requests
      .filter((r) => r.accountId === id)
      .map((r) => r.at)
      .sort((a, b) => a - b);
    let lo = 0;
    let hi = 0;
    rate[id] = ends.map((end) => {
      while (hi < times.length && times[hi]! <= end) hi++;
      while (lo < hi && times[lo]! <= end - WINDOW_MS) lo++;
      return Math.round((1000 * (hi - lo)) / rpm.get(id)!) / 10;
    });
  }

  // Money: each task adds its cost to the balance before it was charged and its hold while it was open (prefix sums).
  const money: Timeline['money'] = {};
  const withTasks = [...new Set(tasks.map((t) => t.account_id))].slice(0, MAX_ACCOUNTS);
  for (const a of input.accounts.filter((acc) => withTasks.includes(acc.id))) {
    const own = tasks.filter((t) => t.account_id === a.id);
    const open = own.filter((t) => t.ended > input.now).length;
    // A finished task's hold is taken as its cost; the open ones share the account's holds now.
    const openHold = open === 0 ? 0 : a.held_usd / open;
    const charged = zeros();
    const held = zeros();
    for (const t of own) {
      const from = first(t.created);
      const to = first(t.ended);
      if (t.status === 'completed' && t.ended <= input.now) {
        charged[0]! += t.usage.cost_usd;
        if (to < count) charged[to]! -= t.usage.cost_usd;
      }
      if (from < to) {
        held[from]! += t.ended > input.now ? openHold : t.usage.cost_usd;
        if (to < count) held[to]! -= t.ended > input.now ? openHold : t.usage.cost_usd;
      }
    }
    let c = 0;
    let h = 0;
    money[a.id] = {
      balance: charged.map((d) => round(a.balance_usd + (c += d))),
      held: held.map((d) => round((h += d))),
    };
  }

  // Task states: each task adds +1/-1 where it enters and leaves a state; a running sum gives the counts per point.
  const states = { queued: zeros(), running: zeros(), completed: zeros(), failed: zeros() };
  const deltas = { queued: zeros(), running: zeros(), completed: zeros(), failed: zeros() };
  const add = (state: keyof typeof deltas, from: number, to: number) => {
    if (from >= to) return;
    deltas[state][from]! += 1;
    if (to < count) deltas[state][to]! -= 1;
  };
  for (const t of tasks) {
    const created = first(t.created);
    const started = Math.max(created, first(t.started));
    const ended = Math.max(started, first(t.ended));
    add('queued', created, started);
    add('running', started, ended);
    add(t.status === 'failed' ? 'failed' : 'completed', ended, count);
  }
  for (const state of Object.keys(states) as (keyof typeof states)[]) {
    let sum = 0;
    for (let i = 0; i < count; i++) states[state][i] = sum += deltas[state][i]!;
  }
  return { step: stepMs / 1000, x: ends.map((e) => e / 1000), requests: byStatus, rate, money, tasks: states };
}

const round = (usd: number) => Math.round(usd * 1e6) / 1e6;
