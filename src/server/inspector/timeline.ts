/**
 * The inspector's charts, computed from what the sandbox keeps (the request journal, the tasks, the accounts) and
 * stamped with the sandbox clock: a manual clock gives the same series every run. Times are epoch seconds (uPlot's x).
 */

export interface TimelineInput {
  now: number;
  requests: { time: string; status: number; accountId: string | null }[];
  tasks: { account_id: string; status: string; created_at: string | null; started_at: string | null; completed_at: string | null; usage: { cost_usd: number } }[];
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
  const tasks = input.tasks.map((t) => ({ ...t, created: ms(t.created_at), started: ms(t.started_at), ended: ms(t.completed_at) }));
  const first = Math.min(input.now - 60_000, ...requests.map((r) => r.at), ...tasks.map((t) => t.created));
  // Whole seconds per point, at most POINTS points, ending at the sandbox clock's now.
  const stepMs = Math.max(1, Math.ceil((input.now - first) / POINTS / 1000)) * 1000;
  const count = Math.min(POINTS, Math.ceil((input.now - first) / stepMs) + 1);
  const ends = Array.from({ length: count }, (_, i) => input.now - (count - 1 - i) * stepMs);
  const zeros = () => new Array<number>(count).fill(0);

  const byStatus = { '2xx': zeros(), '4xx': zeros(), '429': zeros(), '5xx': zeros() };
  const slot = (at: number) => count - 1 - Math.floor((input.now - at) / stepMs);
  for (const r of requests) {
    const i = slot(r.at);
    if (i < 0 || i >= count || r.at > input.now) continue;
    const cls = r.status === 429 ? '429' : r.status >= 500 || r.status === 0 ? '5xx' : r.status >= 400 ? '4xx' : '2xx';
    byStatus[cls][i]! += 1000 / stepMs;
  }

  const rate: Record<string, number[]> = {};
  const rpm = new Map(input.accounts.map((a) => [a.id, a.limits.rpm]));
  const active = [...new Set(requests.map((r) => r.accountId).filter((id): id is string => id !== null && rpm.has(id)))].slice(0, MAX_ACCOUNTS);
  for (const id of active) {
    const times = requests.filter((r) => r.accountId === id).map((r) => r.at);
    rate[id] = ends.map((end) => Math.round((1000 * times.filter((at) => at <= end && at > end - WINDOW_MS).length) / rpm.get(id)!) / 10);
  }

  const money: Timeline['money'] = {};
  const withTasks = [...new Set(tasks.map((t) => t.account_id))].slice(0, MAX_ACCOUNTS);
  for (const a of input.accounts.filter((acc) => withTasks.includes(acc.id))) {
    const own = tasks.filter((t) => t.account_id === a.id);
    const open = own.filter((t) => t.ended > input.now);
    // A finished task's hold is taken as its cost; the open ones share the account's holds now.
    const openHold = open.length === 0 ? 0 : a.held_usd / open.length;
    const balance = ends.map((end) => round(a.balance_usd + own.filter((t) => t.ended > end && t.ended <= input.now && t.status === 'completed').reduce((s, t) => s + t.usage.cost_usd, 0)));
    const held = ends.map((end) => round(own.filter((t) => t.created <= end && t.ended > end).reduce((s, t) => s + (t.ended > input.now ? openHold : t.usage.cost_usd), 0)));
    money[a.id] = { balance, held };
  }

  const states = { queued: zeros(), running: zeros(), completed: zeros(), failed: zeros() };
  for (const t of tasks) {
    ends.forEach((end, i) => {
      if (t.created > end) return;
      if (t.ended <= end) states[t.status === 'failed' ? 'failed' : 'completed'][i]! += 1;
      else if (t.started <= end) states.running[i]! += 1;
      else states.queued[i]! += 1;
    });
  }
  return { step: stepMs / 1000, x: ends.map((e) => e / 1000), requests: byStatus, rate, money, tasks: states };
}

const round = (usd: number) => Math.round(usd * 1e6) / 1e6;
