import type { ModelId } from './models.js';
import type { PlanId } from './plans.js';
import type { Scope } from './scopes.js';

export type Priority = 'low' | 'normal' | 'high' | 'urgent';
export const PRIORITIES: readonly Priority[] = ['low', 'normal', 'high', 'urgent'];

export type TaskStatus = 'queued' | 'running' | 'completed' | 'failed';
export const TASK_STATUSES: readonly TaskStatus[] = ['queued', 'running', 'completed', 'failed'];

/** The five endpoints, named as the usage figures name them. */
export const ENDPOINTS = [
  'GET /ext/agents',
  'GET /ext/agents/:id',
  'POST /ext/tasks',
  'GET /ext/tasks/:id',
  'GET /ext/usage',
] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

/** The figures of one billing period. */
export interface PeriodUsage {
  requests: number;
  byEndpoint: Record<Endpoint, number>;
  inputTokens: number;
  outputTokens: number;
  costNano: number;
  tasks: Record<TaskStatus, number>;
}

export interface Account {
  id: string;
  name: string;
  plan: PlanId;
  balanceNano: number;
  /** Sum of the holds of the account's unfinished tasks. */
  heldNano: number;
  /** Overrides of the plan's limits (control API, load tests). */
  limits: { rpm?: number; tpm?: number };
  periodStart: number;
  periodEnd: number;
  usage: PeriodUsage;
  createdAt: number;
}

export interface ApiKey {
  id: string;
  key: string;
  accountId: string;
  scopes: Scope[];
  revoked: boolean;
  /** What the key is for (banner, README): `admin`, `read:agents`, … */
  label: string;
  createdAt: number;
}

export interface Agent {
  id: string;
  name: string;
  description: string;
  capabilities: string[];
  model: ModelId;
  status: 'available' | 'unavailable';
  createdAt: number;
  /** Token behaviour: fixed input overhead, and the range of output tokens. */
  tokens: { overhead: number; outputMin: number; outputMax: number };
}

export interface TaskError {
  code: string;
  message: string;
}

/** A task as views, events and snapshots read it (stored as a `TaskRecord`, task-record.ts). */
export interface Task {
  readonly id: string;
  readonly seq: number;
  readonly accountId: string;
  readonly agentId: string;
  readonly description: string;
  readonly priority: Priority;
  readonly model: ModelId;
  readonly status: TaskStatus;
  /** null until the task ends; a forced result; or undefined once completed: the seeded result, derived when shown. */
  readonly result: unknown;
  /** The shape of its seeded result (an index of rules/results' RESULT_TYPES), where it has one: 0, plain text. */
  readonly resultType?: number;
  readonly error: TaskError | null;
  readonly inputTokens: number;
  /** Decided at creation from the seed; charged at completion. */
  readonly plannedOutputTokens: number;
  /** Charged figures: zero until completion. */
  readonly outputTokensCharged: number;
  readonly inputTokensCharged: number;
  readonly costNano: number;
  readonly holdNano: number;
  /** What the task costs if it completes (its tokens at the prices in force when it was created), nano-dollars. */
  readonly plannedCostNano: number;
  /** Planned moves, epoch ms. */
  readonly startAt: number;
  readonly endAt: number;
  readonly outcome: 'completed' | 'failed';
  readonly createdAt: number;
  readonly startedAt: number | null;
  readonly completedAt: number | null;
}

/** One fixed 60-second window of an account's (or an anonymous client's) requests and tokens. */
export interface Bucket {
  windowStart: number;
  count: number;
  tokens: number;
}
