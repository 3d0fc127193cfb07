import type { Task } from '../model/types.js';
import type { Engine } from './engine.js';
import { taskText } from './task-text.js';

/** How many finished tasks' answers a sandbox keeps (oldest dropped first). */
export const TASK_JSON_CACHE_SIZE = 512;

/**
 * A task's answer body. A finished task (completed or failed: both final) never changes, so its JSON, with the
 * result text derived from its id, is built once and kept for the next read (a client polling a task, the idempotent
 * replay of a POST); an entry counts only for the very task object it was built from (a reset or a restored state
 * holds new objects). A task still queued or running is serialised afresh.
 */
export function taskJson(engine: Engine, task: Task): string {
  if (task.status !== 'completed' && task.status !== 'failed') return taskText(task);
  const cache = (engine.taskJson ??= new Map<string, { task: Task; body: string }>());
  const hit = cache.get(task.id);
  if (hit?.task === task) return hit.body;
  const body = taskText(task);
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
