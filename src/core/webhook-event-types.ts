import type { TaskEventType } from '../rules/tasks.js';

/** The types of the events webhooks carry (the OpenAPI document's `webhooks` and `webhooks/events.ts` read them). */
export const WEBHOOK_EVENT_TYPES = [
  'task.created',
  'task.started',
  'task.completed',
  'task.failed',
  'credits.low',
] as const satisfies readonly (TaskEventType | 'credits.low')[];
