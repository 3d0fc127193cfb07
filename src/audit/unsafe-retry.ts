import type { PlainResponse } from '../core/types.js';
import type { State } from '../model/state.js';

/**
 * What `unsafe-post-retry` remembers of one client: the task bodies POSTed without an Idempotency-Key whose answer the
 * client may not have seen (a 5xx, a failed connection, a slow answer it may have given up on), and the tasks that the
 * retries of such a body created again.
 */
export interface UnsafePosts {
  /** Body hash → when it was last POSTed uncertainly (sandbox clock) and the tasks it created so far. */
  pending: Map<number, { at: number; taskIds: string[] }>;
  /** Groups of two or more tasks created from one body by a POST and its retries. */
  duplicates: string[][];
}

/** A retry of an uncertain POST counts within this much sandbox time of it (a client that times out retries soon). */
const UNSAFE_RETRY_WINDOW_MS = 10 * 60_000;
const MAX_PENDING = 1_000;
const MAX_GROUPS = 100;
const TASK_ID = /"id"\s*:\s*"([^"]+)"/;

export function unsafePosts(): UnsafePosts {
  return { pending: new Map(), duplicates: [] };
}

/** The id of the task a 201 created (read from its answer). */
function createdTask(status: number, response: PlainResponse | undefined): string | undefined {
  return status === 201 && response ? TASK_ID.exec(response.body)?.[1] : undefined;
}

/** One POST /ext/tasks as the audit weighs it: its body (hashed), whether it had an Idempotency-Key, its answer. */
export interface UnsafePost {
  body: number;
  hasKey: boolean;
  status: number;
  response: PlainResponse | undefined;
  now: number;
}

/**
 * Takes one POST /ext/tasks into account; tells whether it is a retry of an uncertain POST of the same body (the
 * finding). An answer is uncertain to the client when it is a 5xx, no answer at all, or a delayed one: a client with a
 * timeout shorter than the delay gives up while the task is created all the same.
 */
export function observeUnsafePost(posts: UnsafePosts, post: UnsafePost): boolean {
  const { body, hasKey, status, response, now } = post;
  const earlier = posts.pending.get(body);
  const retry = earlier !== undefined && now - earlier.at <= UNSAFE_RETRY_WINDOW_MS;
  if (earlier && !retry) posts.pending.delete(body);
  const uncertain = status >= 500 || status === 0 || (response?.delayMs ?? 0) > 0;
  // The answer is read for its task id only when the POST is remembered: most POSTs are neither retries nor uncertain.
  if (!retry && !(uncertain && !hasKey)) return false;
  const task = createdTask(status, response);
  if (retry) {
    if (task) earlier.taskIds.push(task);
    if (uncertain) earlier.at = now;
    else {
      // The client saw this answer: the chain ends here.
      posts.pending.delete(body);
      if (earlier.taskIds.length > 1 && posts.duplicates.length < MAX_GROUPS) posts.duplicates.push(earlier.taskIds);
    }
  } else if (uncertain && !hasKey && posts.pending.size < MAX_PENDING) {
    posts.pending.set(body, { at: now, taskIds: task ? [task] : [] });
  }
  return retry;
}

/** The tasks created more than once so far (each group: the first, then its duplicates). */
export function duplicateGroups(posts: UnsafePosts): string[][] {
  const open = [...posts.pending.values()].map((p) => p.taskIds).filter((ids) => ids.length > 1);
  return [...posts.duplicates, ...open];
}

/** Nano-dollars the duplicates (all but the first of each group) hold or have been charged. */
export function duplicateNano(state: State, groups: string[][]): number {
  let nano = 0;
  for (const ids of groups)
    for (const id of ids.slice(1)) {
      const task = state.tasks.get(id);
      if (task) nano += task.costNano > 0 ? task.costNano : task.holdNano;
    }
  return nano;
}
