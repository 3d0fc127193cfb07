import { z } from 'zod';
import { PLAN_IDS, type PlanId } from '../model/plans.js';
import { TaskSchema } from './view-schemas.js';

/**
 * The payloads of webhook messages, as zod schemas for the OpenAPI document's `webhooks` section (the events
 * themselves are built by `webhooks/events.ts` from the views; the webhook tests hold them to these schemas).
 */
const timestamp = z.iso.datetime().describe('ISO 8601 UTC timestamp');
const usd = z.number().nonnegative().describe('US dollars');
const envelope = {
  id: z.string().describe('Event identifier (`evt_…`), also sent as `webhook-id`: the same on every retry.'),
  created_at: timestamp.describe('When the move the event reports happened (sandbox clock).'),
};

export const WebhookAccountSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    plan: z.enum(PLAN_IDS as [PlanId, ...PlanId[]]),
    balance_usd: usd,
    held_usd: usd.describe('Held for tasks still running.'),
    limits: z.strictObject({ rpm: z.number().int(), tpm: z.number().int() }),
    period_start: timestamp,
    period_end: timestamp,
  })
  .describe('The account as a credits.low event reports it.');

export const WebhookTaskEventSchema = z
  .strictObject({
    ...envelope,
    type: z.enum(['task.created', 'task.started', 'task.completed', 'task.failed']),
    data: z.strictObject({ task: TaskSchema }),
  })
  .describe('A task moved: the task as GET /ext/tasks/:id showed it at the move.');

export const WebhookCreditsLowEventSchema = z
  .strictObject({
    ...envelope,
    type: z.literal('credits.low'),
    data: z.strictObject({ account: WebhookAccountSchema, threshold_usd: usd }),
  })
  .describe("The account's balance went under the threshold.");
