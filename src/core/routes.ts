import type { ModelId } from '../model/models.js';
import type { Plan } from '../model/plans.js';
import type { Scope } from '../model/scopes.js';
import type { Account, Agent, ApiKey, Endpoint, Priority, Task } from '../model/types.js';
import { limitsOf } from '../rules/accounts.js';
import type { Effects } from '../rules/effects.js';
import { ApiError } from '../rules/errors.js';
import { createTask, settleDue, type NewTask, type TaskEffects } from '../rules/tasks.js';
import { traceTaskChecks } from './trace-task.js';
import { isBodyTooLarge, parseTaskBody } from '../rules/task-body.js';
import type { Engine } from './engine.js';
import { decodeCursor, DEFAULT_PAGE_LIMIT, encodeCursor, parseLimit } from './paging.js';
import type { PlainRequest } from './types.js';
import { agentView, usageView } from './views.js';
import { dropOldest, taskJson } from './task-json.js';
import { hash53 } from '../model/random.js';
import { addStep, type RawTrace } from './trace.js';

/** What a route body gets: the request, and what the guards before it established. */
interface RouteContext {
  engine: Engine;
  req: PlainRequest;
  /** The decoded `:id` segment, for routes that have one. */
  id: string;
  key: ApiKey;
  account: Account;
  plan: Plan;
  effects: Effects;
  now: number;
  /** The decision trace: routes add their steps (body, resource, idempotency, balance, tpm). */
  trace: RawTrace;
}

/** A route's answer; the core adds the common headers. */
export interface Reply {
  status: number;
  body: string;
  headers?: Record<string, string>;
  /** `error.code` of an error answer (for the journal). */
  code?: string;
}

export interface Route {
  endpoint: Endpoint;
  scope: Scope;
  run(ctx: RouteContext): Reply;
}

const ok = (value: unknown, status = 200, headers?: Record<string, string>): Reply => ({
  status,
  body: JSON.stringify(value),
  headers,
});

const EMPTY_PAGE = JSON.stringify({ data: [], has_more: false, next_cursor: null });

/** The page cache's key of the first page at the default limit (the usual request): one string, hashed once. */
const DEFAULT_PAGE_KEY = String(DEFAULT_PAGE_LIMIT);

function listAgents({ engine, req, effects }: RouteContext): Reply {
  // No query (the usual first page): nothing to parse.
  const params = req.query === '' ? undefined : new URLSearchParams(req.query);
  const limit = parseLimit(params?.get('limit') ?? null);
  const rawCursor = params?.get('cursor') ?? null;
  const { state } = engine;
  if (effects.emptyCatalog) {
    if (rawCursor !== null) decodeCursor(rawCursor, () => false);
    return { status: 200, body: EMPTY_PAGE };
  }
  const cache = engine.pageCache;
  if (cache.version !== state.catalogVersion) {
    cache.version = state.catalogVersion;
    cache.pages.clear();
  }
  // No colon without a cursor, so no cursor value (not even an empty one) can hit the first page's entry.
  const cacheKey =
    rawCursor !== null ? `${limit}:${rawCursor}` : limit === DEFAULT_PAGE_LIMIT ? DEFAULT_PAGE_KEY : String(limit);
  const cached = cache.pages.get(cacheKey);
  if (cached !== undefined) return { status: 200, body: cached };
  // decodeCursor accepts only the id of an agent in the index.
  const start =
    rawCursor === null
      ? 0
      : (state.agentIndex.get(decodeCursor(rawCursor, (id) => state.agentIndex.has(id))) ?? -1) + 1;
  const page = state.agents.slice(start, start + limit);
  const hasMore = start + limit < state.agents.length;
  const last = page.at(-1);
  const body = JSON.stringify({
    data: page.map(agentView),
    has_more: hasMore,
    next_cursor: hasMore && last ? encodeCursor(last.id) : null,
  });
  if (cache.pages.size < 1000) cache.pages.set(cacheKey, body);
  return { status: 200, body };
}

function agentNotFound(id: string): ApiError {
  return new ApiError('not_found', `No agent with id '${id}'.`);
}

/** The agent of an id, unless the catalog is empty for the request (scenario empty-catalog). */
function agentOf(engine: Engine, id: string, effects: Effects): Agent | undefined {
  if (effects.emptyCatalog) return undefined;
  const index = engine.state.agentIndex.get(id);
  return index === undefined ? undefined : engine.state.agents[index];
}

function getAgent({ engine, id, effects, trace }: RouteContext): Reply {
  const agent = agentOf(engine, id, effects);
  addStep(trace, 'resource', agent ? 'pass' : 'fail', 'agent', id);
  if (!agent) throw agentNotFound(id);
  return ok(agentView(agent));
}

const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const IDEMPOTENCY_MAX_ENTRIES = 10_000;

function createTaskRoute({ engine, req, account, plan, effects, now, trace }: RouteContext): Reply {
  if (req.bodyTooLarge || isBodyTooLarge(req.body)) throw new ApiError('request_too_large');
  const idemKey = req.header('idempotency-key');
  if (idemKey !== undefined && (idemKey.length === 0 || idemKey.length > 255)) {
    throw new ApiError('invalid_request', "Invalid header 'Idempotency-Key': it must be 1 to 255 characters.");
  }
  const body = parseTaskBody(req.body);
  addStep(trace, 'body', 'pass');
  const { state } = engine;
  const storeKey = idemKey === undefined ? undefined : `${account.id}\n${idemKey}`;
  // "Same body" means the same task fields: key order, whitespace and ignored fields do not make a body different.
  // Hashed only when an Idempotency-Key asks for it.
  const bodyHash =
    storeKey === undefined
      ? 0
      : hash53(JSON.stringify([body.agent_id, body.description, body.priority ?? null, body.model ?? null]));
  if (storeKey !== undefined) {
    const seen = state.idempotency.get(storeKey);
    if (seen && now - seen.at < IDEMPOTENCY_TTL_MS) {
      if (seen.bodyHash !== bodyHash) {
        addStep(trace, 'idempotency', 'fail', idemKey);
        throw new ApiError(
          'invalid_request',
          "Invalid header 'Idempotency-Key': it was already used with a different request body.",
        );
      }
      const first = state.tasks.get(seen.taskId);
      addStep(trace, 'idempotency', first ? 'applied' : 'fail', idemKey);
      if (first) return replyTask(engine, first, true);
      // The first task was dropped by the retention bound: refuse rather than create (and charge) it a second time.
      throw new ApiError(
        'invalid_request',
        "Invalid header 'Idempotency-Key': the task it created is no longer stored (task retention). Use a new key.",
      );
    }
  }
  const agent = agentOf(engine, body.agent_id, effects);
  addStep(trace, 'resource', agent ? 'pass' : 'fail', 'agent', body.agent_id);
  if (!agent) throw agentNotFound(body.agent_id);
  addStep(trace, 'idempotency', idemKey === undefined ? 'skip' : 'pass', idemKey);
  const input: NewTask = {
    agent,
    description: body.description,
    priority: (body.priority ?? 'normal') as Priority,
    model: (body.model ?? agent.model) as ModelId,
  };
  const taskEffects: TaskEffects = {
    plan,
    tpm: limitsOf(account, plan).tpm,
    spendableNano: effects.outOfCredits ? 0 : undefined,
    slowFactor: effects.slowFactor,
    fail: effects.failTasks,
  };
  let task: Task;
  try {
    task = createTask(engine, account, input, now, taskEffects);
  } catch (error) {
    traceTaskChecks(trace, engine, account, input, now, taskEffects, error);
    throw error;
  }
  traceTaskChecks(trace, engine, account, input, now, taskEffects, undefined, task);
  if (storeKey !== undefined) {
    state.idempotency.delete(storeKey);
    state.idempotency.set(storeKey, { bodyHash, taskId: task.id, at: now });
    if (state.idempotency.size > IDEMPOTENCY_MAX_ENTRIES) dropOldest(state.idempotency);
  }
  return replyTask(engine, task);
}

function replyTask(engine: Engine, task: Task, replayed = false): Reply {
  const location = `${engine.basePath}/ext/tasks/${task.id}`;
  return {
    status: 201,
    body: taskJson(engine, task),
    headers: replayed ? { Location: location, 'Idempotent-Replayed': 'true' } : { Location: location },
  };
}

function getTask({ engine, id, account, now, trace }: RouteContext): Reply {
  settleDue(engine, now);
  const task = engine.state.tasks.get(id);
  const found = task !== undefined && task.accountId === account.id;
  // A task of another account: said in the trace (the key may be the wrong one), never in the answer.
  addStep(trace, 'resource', found ? 'pass' : 'fail', 'task', id, task !== undefined && !found);
  if (!found) throw new ApiError('not_found', `No task with id '${id}'.`);
  return { status: 200, body: taskJson(engine, task) };
}

function getUsage({ engine, account, plan, now }: RouteContext): Reply {
  settleDue(engine, now);
  return ok(usageView(account, plan));
}

/** The endpoint table of the API document, §4: method, path, required scope. */
export const ROUTES = {
  listAgents: { endpoint: 'GET /ext/agents', scope: 'read:agents', run: listAgents },
  getAgent: { endpoint: 'GET /ext/agents/:id', scope: 'read:agents', run: getAgent },
  createTask: { endpoint: 'POST /ext/tasks', scope: 'write:tasks', run: createTaskRoute },
  getTask: { endpoint: 'GET /ext/tasks/:id', scope: 'read:tasks', run: getTask },
  getUsage: { endpoint: 'GET /ext/usage', scope: 'read:usage', run: getUsage },
} as const satisfies Record<string, Route>;

/** Finds the route of a method and path (below the base path); `id` is the decoded `:id` segment. */
export function matchRoute(method: string, path: string): { route: Route; id: string } | undefined {
  if (method === 'GET') {
    if (path === '/ext/agents') return { route: ROUTES.listAgents, id: '' };
    if (path === '/ext/usage') return { route: ROUTES.getUsage, id: '' };
    const agentId = segmentAfter(path, '/ext/agents/');
    if (agentId !== undefined) return { route: ROUTES.getAgent, id: agentId };
    const taskId = segmentAfter(path, '/ext/tasks/');
    if (taskId !== undefined) return { route: ROUTES.getTask, id: taskId };
  } else if (method === 'POST' && path === '/ext/tasks') {
    return { route: ROUTES.createTask, id: '' };
  }
  return undefined;
}

function segmentAfter(path: string, prefix: string): string | undefined {
  if (!path.startsWith(prefix)) return undefined;
  const raw = path.slice(prefix.length);
  if (raw === '' || raw.includes('/')) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
