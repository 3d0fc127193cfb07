import { z } from 'zod';
import { MODEL_IDS, type ModelId } from '../model/models.js';
import { RESULT_LANGUAGE_TYPES, RESULT_SHAPES, RESULT_TYPES, type ResultType } from '../model/result-types.js';
import { PLAN_IDS, type PlanId } from '../model/plans.js';
import { ENDPOINTS, PRIORITIES, TASK_STATUSES, type Priority, type TaskStatus } from '../model/types.js';
import { ERROR_CODES, type ErrorCode } from '../rules/errors.js';

/**
 * The response shapes of `views.ts`, as zod schemas: the OpenAPI document is generated from them, and the contract
 * test holds the views to them. Never used on the request path (views stay plain functions).
 */
const timestamp = z.iso.datetime().describe('ISO 8601 UTC timestamp');
const usd = z.number().nonnegative().describe('US dollars');
const count = z.number().int().nonnegative();
const byName = <const K extends readonly string[]>(names: K) =>
  z.strictObject(Object.fromEntries(names.map((n) => [n, count])) as Record<K[number], typeof count>);

export const AgentSchema = z
  .strictObject({
    id: z.string().describe('Agent identifier (`agt_…`): the `agent_id` of a task.'),
    name: z.string(),
    description: z.string(),
    capabilities: z.array(z.string()),
    model: z.enum(MODEL_IDS as [ModelId, ...ModelId[]]).describe('The model the agent runs on by default.'),
    pricing: z.strictObject({
      currency: z.literal('usd'),
      input_per_1m_tokens: usd.describe('List price of the model, USD per 1M input tokens.'),
      output_per_1m_tokens: usd.describe('List price of the model, USD per 1M output tokens.'),
    }),
    status: z.enum(['available', 'unavailable']),
    created_at: timestamp,
  })
  .describe('An agent of the catalog.');

export const AgentListSchema = z
  .strictObject({
    data: z.array(AgentSchema),
    has_more: z.boolean(),
    next_cursor: z.string().nullable().describe('Pass as `?cursor=` to get the next page; null on the last page.'),
  })
  .describe('One page of the catalog, oldest agent first.');

/** One variant of a seeded result a shape: its `type` tag, `output` text and, for some, a `language`. */
const resultVariant = (type: ResultType) =>
  z
    .strictObject({
      type: z.literal(type),
      ...(RESULT_LANGUAGE_TYPES.includes(type) ? { language: z.string().describe('Language tag or name.') } : {}),
      output: z.string().describe('The text of the result: its tokens are the usage.output_tokens charged.'),
    })
    .describe(RESULT_SHAPES[type]);

export const TaskResultSchema = z
  .discriminatedUnion(
    'type',
    RESULT_TYPES.map(resultVariant) as unknown as [
      ReturnType<typeof resultVariant>,
      ...ReturnType<typeof resultVariant>[],
    ],
  )
  .describe(
    "The seeded result of a completed task, shaped by the agent's capability (`type`); see docs/guides/task-results.md.",
  );

const TaskErrorSchema = z.strictObject({ code: z.string(), message: z.string() });

export const TaskSchema = z
  .strictObject({
    id: z.string().describe('Task identifier (`task_…`).'),
    agent_id: z.string(),
    description: z.string(),
    priority: z.enum(PRIORITIES as [Priority, ...Priority[]]),
    model: z.enum(MODEL_IDS as [ModelId, ...ModelId[]]),
    status: z.enum(TASK_STATUSES as [TaskStatus, ...TaskStatus[]]).describe('queued → running → completed | failed.'),
    result: z
      .union([TaskResultSchema, z.null(), z.unknown().describe('A result forced by the control API, as given.')])
      .describe('The result once completed (a TaskResult unless forced); null until then.'),
    error: TaskErrorSchema.nullable().describe('Why the task failed; null unless failed.'),
    usage: z
      .strictObject({
        input_tokens: count,
        output_tokens: count,
        cost_usd: usd,
      })
      .describe('Charged at completion: zeros until then.'),
    created_at: timestamp,
    started_at: timestamp.nullable(),
    completed_at: timestamp.nullable(),
  })
  .describe('A task and its status and results.');

export const UsageSchema = z
  .strictObject({
    account_id: z.string(),
    plan: z.enum(PLAN_IDS as [PlanId, ...PlanId[]]),
    period_start: timestamp,
    period_end: timestamp,
    balance_usd: usd,
    requests: z.strictObject({ total: count, by_endpoint: byName(ENDPOINTS) }),
    tokens: z.strictObject({ input: count, output: count, total: count }),
    cost_usd: usd,
    tasks: byName(TASK_STATUSES),
    limits: z.strictObject({ rpm: count.describe('Requests per minute.'), tpm: count.describe('Tokens per minute.') }),
  })
  .describe("The account's figures for the current billing period.");

export const ErrorSchema = z
  .strictObject({
    error: z.strictObject({
      code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
    }),
  })
  .describe('Every error answer has this shape.');
