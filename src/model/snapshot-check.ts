/**
 * Checks a state snapshot the way one zod schema of the whole snapshot would, but hands each task to the caller as soon
 * as it is checked: a 100k-task state file no longer has zod's checked copy of every task alive beside the parsed file
 * and the records made from it. The error is the one the whole schema reported: its first issue, in the order of the
 * snapshot's fields (`seed`, `now`, `accounts`, `keys`, `agents`, `tasks`, then the rest), and only when every field
 * has the right shape, the first record naming no account of the state (keys, then tasks, then webhook endpoints).
 */
import { SnapshotError } from '../errors.js';
import { snapshotRestSchema, snapshotTaskSchema } from './snapshot-schema.js';

/** The fields of a snapshot that come before `tasks`: their issues are reported before any task's. */
const BEFORE_TASKS = new Set<PropertyKey>(['seed', 'now', 'accounts', 'keys', 'agents']);

interface Issue {
  path: PropertyKey[];
  message: string;
}

function fail(issue: Issue | undefined, at: PropertyKey[] = []): never {
  const path = [...at, ...(issue?.path ?? [])].map(String).join('.');
  throw new SnapshotError(`Invalid state snapshot: "${path}" ${issue?.message ?? 'is invalid'}.`);
}

function orphan(list: string, items: readonly { accountId: string }[], accounts: ReadonlySet<string>): Issue | null {
  const i = items.findIndex((item) => !accounts.has(item.accountId));
  return i < 0 ? null : { path: [list, i, 'accountId'], message: noAccount(items[i]?.accountId ?? '') };
}

const noAccount = (accountId: string) => `names no account of the state ('${accountId}')`;

/**
 * Checks `snap` (whose lists are known to be arrays) and returns zod's copy of it without its tasks (`tasks` is the
 * given list, unchecked); `onTask` gets zod's copy of each task, in order, once it is checked. Throws SnapshotError on
 * the first issue; a caller builds its state aside, so that a throw after some tasks changes nothing.
 */
export function checkSnapshot(snap: { tasks: readonly unknown[] }, onTask: (task: TaskCopy) => void): RestCopy {
  const rest = snapshotRestSchema().safeParse(snap);
  const restIssue = rest.success ? undefined : rest.error.issues[0];
  if (!rest.success && (restIssue === undefined || BEFORE_TASKS.has(restIssue.path[0] ?? ''))) fail(restIssue);
  const accounts = rest.success ? new Set(rest.data.accounts.map((a) => a.id)) : new Set<string>();
  const taskSchema = snapshotTaskSchema();
  let orphanTask: Issue | null = null;
  for (let i = 0; i < snap.tasks.length; i++) {
    const task = taskSchema.safeParse(snap.tasks[i]);
    if (!task.success) fail(task.error.issues[0], ['tasks', i]);
    if (orphanTask === null && !accounts.has(task.data.accountId))
      orphanTask = { path: ['tasks', i, 'accountId'], message: noAccount(task.data.accountId) };
    onTask(task.data);
  }
  if (!rest.success) fail(restIssue);
  const refused =
    orphan('keys', rest.data.keys, accounts) ??
    orphanTask ??
    orphan('webhooks.endpoints', rest.data.webhooks?.endpoints ?? [], accounts);
  if (refused) fail(refused);
  return rest.data;
}

type RestCopy = ReturnType<ReturnType<typeof snapshotRestSchema>['parse']>;
type TaskCopy = ReturnType<ReturnType<typeof snapshotTaskSchema>['parse']>;
