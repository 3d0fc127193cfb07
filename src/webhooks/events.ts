/** The events webhooks carry, and their payloads: `{ id, type, created_at, data }`. */
import { nanoToUsd } from '../model/money.js';
import type { Account, Task } from '../model/types.js';
import { iso } from '../core/iso.js';
import { accountView, taskView } from '../core/views.js';
import type { TaskEventType } from '../rules/tasks.js';
import { WEBHOOK_EVENT_TYPES as EVENT_TYPES } from '../core/webhook-event-types.js';

export type WebhookEventType = TaskEventType | 'credits.low';

export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = EVENT_TYPES;

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return typeof value === 'string' && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** The body of a webhook message. `created_at` is the sandbox time of the move it reports. */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  created_at: string;
  data: { task: ReturnType<typeof taskView> } | { account: ReturnType<typeof accountView>; threshold_usd: number };
}

export function taskEvent(id: string, type: TaskEventType, task: Task, at: number): WebhookEvent {
  return { id, type, created_at: iso(at), data: { task: taskView(task) } };
}

export function creditsLowEvent(id: string, account: Account, thresholdNano: number, at: number): WebhookEvent {
  return {
    id,
    type: 'credits.low',
    created_at: iso(at),
    data: { account: accountView(account), threshold_usd: nanoToUsd(thresholdNano) },
  };
}

/** A sample event of a given type (`POST /__sandbox/webhooks/test`): a made-up task, or the endpoint's account. */
export function sampleEvent(
  id: string,
  type: WebhookEventType,
  about: { account: Account; agentId: string; thresholdNano: number; at: number },
): WebhookEvent {
  const { account, agentId, thresholdNano, at } = about;
  if (type === 'credits.low') return creditsLowEvent(id, account, thresholdNano, at);
  const status = (
    {
      'task.created': 'queued',
      'task.started': 'running',
      'task.completed': 'completed',
      'task.failed': 'failed',
    } as const
  )[type];
  const ended = status === 'completed' || status === 'failed';
  const task: Task = {
    id: 'task_sample0000000000',
    seq: 0,
    accountId: account.id,
    agentId,
    description: 'A sample task sent by the webhook test.',
    priority: 'normal',
    model: 'model-b',
    status,
    result: status === 'completed' ? { type: 'text', output: 'A sample result.' } : null,
    error: status === 'failed' ? { code: 'task_failed', message: 'The agent could not complete the task.' } : null,
    inputTokens: 0,
    plannedOutputTokens: 0,
    inputTokensCharged: 0,
    outputTokensCharged: 0,
    costNano: 0,
    holdNano: 0,
    plannedCostNano: 0,
    startAt: at,
    endAt: at,
    outcome: 'completed',
    createdAt: at,
    startedAt: status === 'queued' ? null : at,
    completedAt: ended ? at : null,
  };
  return taskEvent(id, type, task, at);
}
