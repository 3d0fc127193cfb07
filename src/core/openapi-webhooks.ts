/**
 * The OpenAPI document's `webhooks` section: one entry per event type, with the Standard Webhooks headers and the
 * payload, so that a handler's types can be generated like a client's.
 */
import { WEBHOOK_EVENT_TYPES } from './webhook-event-types.js';

const SUMMARIES: Record<(typeof WEBHOOK_EVENT_TYPES)[number], string> = {
  'task.created': 'A task was created (status queued)',
  'task.started': 'A task started running',
  'task.completed': 'A task completed: its result and charged usage',
  'task.failed': 'A task failed: its error',
  'credits.low': "The account's balance went under the low-balance threshold",
};

/** The request headers of every webhook message, as OpenAPI parameters (components.parameters). */
export const WEBHOOK_HEADER_PARAMETERS = {
  'webhook-id': {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id (`evt_…`), the same on every retry: deduplicate on it.',
    schema: { type: 'string' },
  },
  'webhook-timestamp': {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description:
      'Seconds since 1970 (wall clock) when the message was signed. Reject a message more than five minutes from now.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  'webhook-signature': {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Standard Webhooks: `v1,` then the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the endpoint secret after `whsec_`.',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$' },
  },
};

/** `webhooks`: one POST per event type, its payload by reference to components.schemas. */
export function webhooksSection(): Record<string, unknown> {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook.${type}`,
          summary: SUMMARIES[type],
          description:
            'Sent to the endpoints of Pro and Enterprise accounts, signed with Standard Webhooks 1.0. Answer 2xx within the timeout once the message is verified; any other answer is retried with back-off.',
          tags: ['webhooks'],
          security: [],
          parameters: Object.keys(WEBHOOK_HEADER_PARAMETERS).map((name) => ({
            $ref: `#/components/parameters/${name}`,
          })),
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  $ref: `#/components/schemas/${type === 'credits.low' ? 'WebhookCreditsLowEvent' : 'WebhookTaskEvent'}`,
                },
              },
            },
          },
          responses: {
            '2XX': { description: 'The message was verified and taken.' },
            '4XX': { description: 'Refused (a bad signature or a stale timestamp): not retried once fixed.' },
          },
        },
      },
    ]),
  );
}
