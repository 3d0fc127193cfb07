/**
 * A task's answer body, `JSON.stringify(taskView(task))` byte for byte: written by hand in the view's key order, and
 * kept once the task is finished. Both make a POST's answer and a polled task's read cheaper (a measured gain on the
 * in-process cost per request: docs/decisions/performance.md).
 */
import { nanoToUsd } from '../model/money.js';
import type { Task } from '../model/types.js';
import { resultOf } from '../rules/tasks.js';
import type { Engine } from './engine.js';
import { iso, taskView } from './views.js';

const q = JSON.stringify;

/**
 * A value as `JSON.stringify` writes it inside an object; undefined where that could differ: no JSON form (the key
 * would be dropped), or a `toJSON` of its own (it is told the key inside an object, '' alone).
 */
function valueText(value: unknown): string | undefined {
  if (value === null) return 'null';
  const kind = typeof value;
  const objectLike = kind === 'object' || kind === 'function' || kind === 'bigint';
  if (objectLike && typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
  const text: string | undefined = q(value); // undefined for a function, a symbol, undefined
  return text;
}

const timeText = (t: number | null): string => (t === null ? 'null' : q(iso(t)));

/**
 * `JSON.stringify(taskView(task))`, written in the view's key order without building the view object first. Every value goes through `JSON.stringify` itself, so
 * escaping and number forms are the engine's; a result or error with no JSON form (a key `JSON.stringify` would
 * drop) falls back to the generic walk, as does one with a `toJSON`. test/tasks-and-billing/task-json.test.ts checks
 * byte identity for every shape.
 */
export function writeTaskJson(task: Task): string {
  const result = valueText(resultOf(task));
  const error = valueText(task.error);
  if (result === undefined || error === undefined) return q(taskView(task));
  return (
    `{"id":${q(task.id)},"agent_id":${q(task.agentId)},"description":${q(task.description)},` +
    `"priority":${q(task.priority)},"model":${q(task.model)},"status":${q(task.status)},` +
    `"result":${result},"error":${error},"usage":{"input_tokens":${q(task.inputTokensCharged)},` +
    `"output_tokens":${q(task.outputTokensCharged)},"cost_usd":${q(nanoToUsd(task.costNano))}},` +
    `"created_at":${timeText(task.createdAt)},"started_at":${timeText(task.startedAt)},` +
    `"completed_at":${timeText(task.completedAt)}}`
  );
}

/** How many finished tasks' answers a sandbox keeps (oldest dropped first). */
export const TASK_JSON_CACHE_SIZE = 512;

/**
 * A task's answer body. A finished task (completed or failed: both final) never changes, so its JSON, with the
 * result text derived from its id, is built once and kept for the next read (a client polling a task, the idempotent
 * replay of a POST); an entry counts only for the very task object it was built from (a reset or a restored state
 * holds new objects). A task still queued or running is serialised afresh.
 */
export function cachedTaskJson(engine: Engine, task: Task): string {
  if (task.status !== 'completed' && task.status !== 'failed') return writeTaskJson(task);
  const cache = (engine.taskJson ??= new Map<string, { task: Task; body: string }>());
  const hit = cache.get(task.id);
  if (hit?.task === task) return hit.body;
  const body = writeTaskJson(task);
  if (cache.size >= TASK_JSON_CACHE_SIZE) dropOldest(cache);
  cache.set(task.id, { task, body });
  return body;
}

/** Deletes a map's oldest entry (the first inserted). */
export function dropOldest(map: Map<string, unknown>): void {
  for (const key of map.keys()) {
    map.delete(key);
    return;
  }
}
