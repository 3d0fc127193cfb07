import { SnapshotError } from '../errors.js';
import type { WebhookSnapshot } from './snapshot-schema.js';
import type { FixtureSet } from './fixture-schema.js';
import { KeyIndex } from './key-index.js';
import { DueQueue } from './due-queue.js';
import { Fifo } from './fifo.js';
import { resultTypeFor } from './result-types.js';
import { taskFromSnapshot, taskSnapshot, type TaskRecord } from './task-record.js';
import { checkSnapshot } from './snapshot-check.js';
import { usdToNano } from './money.js';
import { PLANS, type PlanId } from './plans.js';
import type { Scope } from './scopes.js';
import {
  ENDPOINTS,
  TASK_STATUSES,
  type Account,
  type Agent,
  type ApiKey,
  type Bucket,
  type Endpoint,
  type PeriodUsage,
  type Task,
  type TaskStatus,
} from './types.js';
import type { ModelId } from './models.js';

interface IdempotencyEntry {
  bodyHash: number;
  taskId: string;
  at: number;
}

/** The whole in-memory state of one sandbox. Lookups on the request path are Map gets. */
export interface State {
  accounts: Map<string, Account>;
  /** By the key's value (`ak_…`): the lookup of every request, by keyed hash and constant-time comparison. */
  keys: KeyIndex;
  keysById: Map<string, ApiKey>;
  agents: Agent[];
  agentIndex: Map<string, number>;
  /** Bumped whenever the catalog changes, so cached list pages can be dropped. */
  catalogVersion: number;
  tasks: Map<string, TaskRecord>;
  /** Finished tasks, in the order they finished: a retention bound drops the oldest beyond it (without one, only its size is read). */
  finished: Fifo<TaskRecord>;
  /** Planned task moves, earliest first: settling costs O(log n) per due move. */
  due: DueQueue<TaskRecord>;
  buckets: Map<string, Bucket>;
  anonymous: Map<string, Bucket>;
  idempotency: Map<string, IdempotencyEntry>;
  counters: { task: number; key: number; account: number };
}

export function emptyUsage(): PeriodUsage {
  return {
    requests: 0,
    byEndpoint: Object.fromEntries(ENDPOINTS.map((e) => [e, 0])) as Record<Endpoint, number>,
    inputTokens: 0,
    outputTokens: 0,
    costNano: 0,
    tasks: Object.fromEntries(TASK_STATUSES.map((s) => [s, 0])) as Record<TaskStatus, number>,
  };
}

export function newAccount(
  fields: { id: string; name: string; plan: PlanId; balanceNano?: number; limits?: Account['limits'] },
  period: { start: number; end: number },
  now: number,
): Account {
  return {
    id: fields.id,
    name: fields.name,
    plan: fields.plan,
    balanceNano: fields.balanceNano ?? PLANS[fields.plan].monthlyCreditsNano,
    heldNano: 0,
    limits: { ...fields.limits },
    periodStart: period.start,
    periodEnd: period.end,
    usage: emptyUsage(),
    createdAt: now,
  };
}

export function addKey(state: State, key: ApiKey): void {
  state.keys.set(key.key, key);
  state.keysById.set(key.id, key);
}

// Versions are unique across states, so a page cached for one state is never served for a restored or reset one.
let catalogVersions = 0;

function setAgents(state: State, agents: Agent[]): void {
  state.agents = agents;
  state.agentIndex = new Map(agents.map((a, i) => [a.id, i]));
  state.catalogVersion = ++catalogVersions;
}

function emptyState(): State {
  return {
    accounts: new Map(),
    keys: new KeyIndex(),
    keysById: new Map(),
    agents: [],
    agentIndex: new Map(),
    catalogVersion: 0,
    tasks: new Map(),
    finished: new Fifo<TaskRecord>(),
    due: new DueQueue<TaskRecord>(),
    buckets: new Map(),
    anonymous: new Map(),
    idempotency: new Map(),
    counters: { task: 0, key: 0, account: 0 },
  };
}

/** Builds the state a fixture set describes, at time `now` (billing periods start from it). */
export function stateFromFixtures(set: FixtureSet, now: number, period: { start: number; end: number }): State {
  const state = emptyState();
  for (const a of set.accounts) {
    state.accounts.set(
      a.id,
      newAccount(
        {
          id: a.id,
          name: a.name,
          plan: a.plan as PlanId,
          balanceNano: a.balance_usd === undefined ? undefined : usdToNano(a.balance_usd),
          limits: a.limits,
        },
        period,
        now,
      ),
    );
  }
  for (const k of set.keys) {
    addKey(state, {
      id: k.id,
      key: k.key,
      accountId: k.account_id,
      scopes: [...k.scopes] as Scope[],
      revoked: k.revoked ?? false,
      label: k.label ?? k.scopes.join(' '),
      createdAt: now,
    });
  }
  setAgents(
    state,
    set.agents.map((a) => ({
      id: a.id,
      name: a.name,
      description: a.description,
      capabilities: [...a.capabilities],
      model: a.model as ModelId,
      status: a.status,
      createdAt: Date.parse(a.created_at),
      tokens: { overhead: a.tokens.overhead, outputMin: a.tokens.output_min, outputMax: a.tokens.output_max },
    })),
  );
  return state;
}

/** The JSON form of a state: what `snapshot()` returns and `restore()` takes. */
export interface StateSnapshot {
  format: 'agent-work-sandbox/state';
  version: 1;
  seed: number;
  now: number;
  /** The clock the state was saved under: a manual one resumes at `now` on any clock (older snapshots have none). */
  clock?: 'real' | 'manual';
  accounts: Account[];
  keys: ApiKey[];
  agents: Agent[];
  tasks: Task[];
  buckets: [string, Bucket][];
  anonymous: [string, Bucket][];
  idempotency: [string, IdempotencyEntry][];
  counters: State['counters'];
  /** Webhook endpoints and deliveries (snapshots from before they were kept have none). */
  webhooks?: WebhookSnapshot;
}

export { SnapshotError };

export function toSnapshot(state: State, seed: number, now: number): StateSnapshot {
  // A JSON round trip makes the snapshot independent of the live state.
  return JSON.parse(
    JSON.stringify({
      format: 'agent-work-sandbox/state',
      version: 1,
      seed,
      now,
      accounts: [...state.accounts.values()],
      keys: [...state.keysById.values()],
      agents: state.agents,
      tasks: [...state.tasks.values()].map(taskSnapshot),
      buckets: [...state.buckets],
      anonymous: [...state.anonymous],
      idempotency: [...state.idempotency],
      counters: state.counters,
    }),
  ) as StateSnapshot;
}

/** The shape of each task's seeded result, from its agent and description (snapshots do not keep it). */
function deriveResultTypes(state: State): void {
  for (const task of state.tasks.values()) {
    const agent = state.agents[state.agentIndex.get(task.agentId) ?? -1];
    if (agent) task.resultType = resultTypeFor(agent.capabilities, task.description);
  }
}

/** A snapshot's task record with its result copied, and the planned cost of snapshots from before it was kept. */
function restoredTask(t: Task): Task {
  const old = t as Task & { priceNano?: { input: number; output: number } };
  const result: unknown = t.result !== null && typeof t.result === 'object' ? structuredClone(t.result) : t.result;
  // Snapshots written before the flat task record carry the prices instead of the planned cost.
  const plannedCostNano =
    (t.plannedCostNano as number | undefined) ??
    old.inputTokens * (old.priceNano?.input ?? 0) + old.plannedOutputTokens * (old.priceNano?.output ?? 0);
  return { ...t, result, plannedCostNano };
}

/**
 * Rebuilds a state from a snapshot; throws SnapshotError on a value that is not one. `own`: a snapshot this sandbox
 * made itself (its initial state), copied instead of checked, so that a start loads no zod.
 */
export function fromSnapshot(input: unknown, own = false): State {
  const snap = input as Partial<StateSnapshot> | null;
  if (!snap || typeof snap !== 'object' || snap.format !== 'agent-work-sandbox/state') {
    throw new SnapshotError('Not a sandbox state snapshot: "format" must be "agent-work-sandbox/state".');
  }
  if (snap.version !== 1)
    throw new SnapshotError(
      `Unsupported state snapshot version ${JSON.stringify(snap.version)}: this sandbox reads version 1.`,
    );
  const lists = ['accounts', 'keys', 'agents', 'tasks', 'buckets', 'anonymous', 'idempotency'] as const;
  for (const field of lists) {
    if (!Array.isArray(snap[field])) throw new SnapshotError(`Invalid state snapshot: "${field}" must be an array.`);
  }
  // zod's output is a copy of every field the sandbox reads (only forced task results, kept as given, are shared); the
  // tasks are checked and turned into records one at a time, so that no checked copy of the whole list is ever alive.
  const state = emptyState();
  const ended: TaskRecord[] = [];
  const addTask = (t: Task) => {
    const task = taskFromSnapshot(restoredTask(t));
    state.tasks.set(task.id, task);
    if (task.queued) state.due.push(task.startAt, task, task.seq, 'start');
    else if (task.running) state.due.push(task.endAt, task, task.seq, 'end');
    else ended.push(task);
  };
  let copy: Omit<StateSnapshot, 'tasks'>;
  if (own) {
    const whole = structuredClone(snap) as StateSnapshot;
    whole.tasks.forEach(addTask);
    copy = whole;
  } else copy = checkSnapshot(snap as StateSnapshot, (t) => addTask(t as unknown as Task)) as unknown as StateSnapshot;
  for (const a of copy.accounts) state.accounts.set(a.id, a);
  for (const k of copy.keys) addKey(state, k);
  setAgents(state, copy.agents);
  deriveResultTypes(state);
  ended.sort((a, b) => (a.completedAt ?? 0) - (b.completedAt ?? 0) || a.seq - b.seq);
  for (const t of ended) state.finished.add(t);
  state.buckets = new Map(copy.buckets);
  state.anonymous = new Map(copy.anonymous);
  state.idempotency = new Map(copy.idempotency);
  state.counters = { ...copy.counters };
  return state;
}
