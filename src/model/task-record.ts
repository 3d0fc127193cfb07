import { intern } from './intern.js';
import { MODEL_IDS, type ModelId } from './models.js';
import { PRIORITIES, TASK_STATUSES, type Priority, type Task, type TaskError, type TaskStatus } from './types.js';

const TASK_FAILED: TaskError = { code: 'task_failed', message: 'The agent could not complete the task.' };

/** What the control API forced on a task, where it differs from what its planned times and outcome give. */
export interface TaskExtra {
  startedAt?: number | null;
  completedAt?: number | null;
  result?: unknown;
  error?: TaskError | null;
}

// Status (2 bits), outcome (1 bit), priority (2 bits), dropped (1 bit), model (4 bits) and the shape of the result
// (the rest) in one small integer.
const STATUS_MASK = 3;
const FAILED_OUTCOME = 4;
const PRIORITY_SHIFT = 3;
const DROPPED = 32;
const MODEL_SHIFT = 6;
const MODEL_MASK = 15;
const SHAPE_SHIFT = 10;
const QUEUED = 0;
const RUNNING = 1;
const COMPLETED = 2;
const TIME_SPLIT = 2 ** 30;
const FAILED = 3;

/**
 * A stored task: only what cannot be derived, so that 100,000 tasks stay small (docs/benchmarks.md, issue 16). Times
 * are `createdAt` (split in two) and two small offsets from it: integers a JavaScript engine stores unboxed. The
 * enumerations share one integer; charged figures, the hold once released, the start and end times and the result or
 * error follow from the status and the plan unless the control API forced them (`extra`). It reads as a `Task`.
 */
export class TaskRecord implements Task {
  private bits: number;
  /** `createdAt` in two small integers (an epoch-ms double would be a separate 16-byte box). */
  private readonly createdHi: number;
  private readonly createdLo: number;
  private readonly startIn: number;
  private readonly endIn: number;
  extra: TaskExtra | null = null;

  constructor(
    readonly id: string,
    readonly seq: number,
    readonly accountId: string,
    readonly agentId: string,
    readonly description: string,
    fields: {
      priority: Priority;
      model: ModelId;
      status: TaskStatus;
      outcome: 'completed' | 'failed';
      /** The shape of its generated result (an index of rules/results' RESULT_TYPES; 0: plain text). */
      resultType?: number;
    },
    readonly inputTokens: number,
    readonly plannedOutputTokens: number,
    readonly plannedCostNano: number,
    /** The amount held while the task is unfinished. */
    private readonly hold: number,
    createdAt: number,
    startAt: number,
    endAt: number,
  ) {
    this.createdHi = Math.floor(createdAt / TIME_SPLIT);
    this.createdLo = createdAt - this.createdHi * TIME_SPLIT;
    this.bits =
      TASK_STATUSES.indexOf(fields.status) |
      (fields.outcome === 'failed' ? FAILED_OUTCOME : 0) |
      (PRIORITIES.indexOf(fields.priority) << PRIORITY_SHIFT) |
      (MODEL_IDS.indexOf(fields.model) << MODEL_SHIFT) |
      ((fields.resultType ?? 0) << SHAPE_SHIFT);
    this.startIn = startAt - createdAt;
    this.endIn = endAt - createdAt;
  }

  get status(): TaskStatus {
    return TASK_STATUSES[this.bits & STATUS_MASK] ?? 'queued';
  }
  /** Queued → running (the books are the caller's). */
  markRunning(): void {
    this.bits = (this.bits & ~STATUS_MASK) | RUNNING;
  }
  /** Running → completed or failed (the books are the caller's). */
  markEnded(outcome: 'completed' | 'failed'): void {
    this.bits = (this.bits & ~STATUS_MASK) | (outcome === 'completed' ? COMPLETED : FAILED);
  }
  /** Marks a task that the retention bound drops (see `dropBeyondRetention`). */
  markDropped(): void {
    this.bits |= DROPPED;
  }
  get dropped(): boolean {
    return (this.bits & DROPPED) !== 0;
  }
  /** Completed or failed. */
  get ended(): boolean {
    return (this.bits & STATUS_MASK) >= COMPLETED;
  }
  get queued(): boolean {
    return (this.bits & STATUS_MASK) === QUEUED;
  }
  get running(): boolean {
    return (this.bits & STATUS_MASK) === RUNNING;
  }
  get outcome(): 'completed' | 'failed' {
    return (this.bits & FAILED_OUTCOME) === 0 ? 'completed' : 'failed';
  }
  get priority(): Priority {
    return PRIORITIES[(this.bits >> PRIORITY_SHIFT) & 3] ?? 'normal';
  }
  get model(): ModelId {
    return MODEL_IDS[(this.bits >> MODEL_SHIFT) & MODEL_MASK] ?? 'model-a';
  }
  /** The shape of its generated result: derived from its agent and description, so snapshots do not keep it. */
  get resultType(): number {
    return this.bits >> SHAPE_SHIFT;
  }
  set resultType(index: number) {
    this.bits = (this.bits & ((1 << SHAPE_SHIFT) - 1)) | (index << SHAPE_SHIFT);
  }
  get createdAt(): number {
    return this.createdHi * TIME_SPLIT + this.createdLo;
  }
  get startAt(): number {
    return this.createdAt + this.startIn;
  }
  get endAt(): number {
    return this.createdAt + this.endIn;
  }
  get startedAt(): number | null {
    if (this.extra?.startedAt !== undefined) return this.extra.startedAt;
    return this.queued ? null : this.startAt;
  }
  get completedAt(): number | null {
    if (this.extra?.completedAt !== undefined) return this.extra.completedAt;
    return this.ended ? this.endAt : null;
  }
  /** null until the task ends; a forced result; or undefined once completed: the seeded result, derived when shown. */
  get result(): unknown {
    if (this.extra && 'result' in this.extra) return this.extra.result;
    return this.status === 'completed' ? undefined : null;
  }
  get error(): TaskError | null {
    if (this.extra?.error !== undefined) return this.extra.error;
    return this.status === 'failed' ? TASK_FAILED : null;
  }
  get inputTokensCharged(): number {
    return this.status === 'completed' ? this.inputTokens : 0;
  }
  get outputTokensCharged(): number {
    return this.status === 'completed' ? this.plannedOutputTokens : 0;
  }
  get costNano(): number {
    return this.status === 'completed' ? this.plannedCostNano : 0;
  }
  get holdNano(): number {
    return this.ended ? 0 : this.hold;
  }
  /** The amount held while the task is unfinished: what its end releases (or released). */
  get plannedHoldNano(): number {
    return this.hold;
  }

  /** Records what the control API forced (only where it differs from the plan). */
  force(changes: TaskExtra): void {
    this.extra = { ...this.extra, ...changes };
  }
}

/** The plain `Task` record of a stored task, as snapshots and state files hold it. */
export function taskSnapshot(t: Task): Task {
  return {
    id: t.id,
    seq: t.seq,
    accountId: t.accountId,
    agentId: t.agentId,
    description: t.description,
    priority: t.priority,
    model: t.model,
    status: t.status,
    result: t.result,
    error: t.error,
    inputTokens: t.inputTokens,
    plannedOutputTokens: t.plannedOutputTokens,
    inputTokensCharged: t.inputTokensCharged,
    outputTokensCharged: t.outputTokensCharged,
    costNano: t.costNano,
    holdNano: t.holdNano,
    plannedCostNano: t.plannedCostNano,
    startAt: t.startAt,
    endAt: t.endAt,
    outcome: t.outcome,
    createdAt: t.createdAt,
    startedAt: t.startedAt,
    completedAt: t.completedAt,
  };
}

const isDefaultError = (e: TaskError | null): boolean =>
  e !== null && Object.keys(e).length === 2 && e.code === TASK_FAILED.code && e.message === TASK_FAILED.message;

/**
 * A stored task from a snapshot's record: whatever its fields say beyond the plan is kept in `extra`. The account, the
 * agent and the description are shared between the tasks that repeat them: a parsed state file has its own copy of
 * each in every task (12 MiB for 100,000 tasks loaded from `--state`).
 */
export function taskFromSnapshot(t: Task): TaskRecord {
  const fields = { priority: t.priority, model: t.model, status: t.status, outcome: t.outcome };
  const record = new TaskRecord(
    t.id,
    t.seq,
    intern(t.accountId),
    intern(t.agentId),
    intern(t.description),
    fields,
    t.inputTokens,
    t.plannedOutputTokens,
    t.plannedCostNano,
    t.holdNano,
    t.createdAt,
    t.startAt,
    t.endAt,
  );
  const extra: TaskExtra = {};
  if (t.startedAt !== record.startedAt) extra.startedAt = t.startedAt;
  if (t.completedAt !== record.completedAt) extra.completedAt = t.completedAt;
  if (t.result !== record.result) extra.result = t.result;
  const defaultError = t.status === 'failed' ? isDefaultError(t.error) : t.error === null;
  if (!defaultError) extra.error = t.error;
  if (Object.keys(extra).length > 0) record.extra = extra;
  return record;
}
