import express from 'express';
import { SandboxError } from '../errors.js';
import type { SandboxCore as Sandbox } from '../sandbox-types.js';
import type { WebhookEventType } from '../webhooks/events.js';
import type { DeliveryStatus, WebhookEndpoint } from '../webhooks/types.js';

function object(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new SandboxError('The request body must be a JSON object.');
  return body as Record<string, unknown>;
}

const query = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function optionalString(b: Record<string, unknown>, name: string): string | undefined {
  const value = b[name];
  if (value !== undefined && typeof value !== 'string') throw new SandboxError(`${name} must be a string.`);
  return value as string | undefined;
}

function toEndpointJson(e: WebhookEndpoint) {
  return { id: e.id, account_id: e.accountId, url: e.url, secret: e.secret, created_at: e.createdAt };
}

/**
 * The webhook routes of the control API: endpoints per account, the delivery journal, replay and a test event.
 * Deliveries are shown as the library shows them (like the request journal).
 */
export function createWebhooksRouter(sandbox: Sandbox): express.Router {
  const router = express.Router();
  router.post('/accounts/:id/webhooks', (req, res) => {
    const b = object(req.body);
    const url = optionalString(b, 'url');
    if (url === undefined) throw new SandboxError('Give the endpoint as { "url": "https://…", "secret"?: "whsec_…" }.');
    res.status(201).json(toEndpointJson(sandbox.webhooks.add({ accountId: req.params.id!, url, secret: optionalString(b, 'secret') })));
  });
  router.get('/accounts/:id/webhooks', (req, res) => {
    if (!sandbox.accounts.get(req.params.id!)) throw new SandboxError(`No account '${req.params.id}'.`, 'not_found');
    res.json({ data: sandbox.webhooks.list(req.params.id!).map(toEndpointJson) });
  });
  router.get('/webhooks', (req, res) => {
    res.json({ data: sandbox.webhooks.list(query(req.query.account_id)).map(toEndpointJson) });
  });
  router.get('/webhooks/deliveries', (req, res) => {
    const status = query(req.query.status);
    if (status !== undefined && !['pending', 'succeeded', 'failed'].includes(status)) throw new SandboxError('status must be pending, succeeded or failed.');
    res.json({
      data: sandbox.webhooks.deliveries({
        accountId: query(req.query.account_id),
        endpointId: query(req.query.endpoint_id),
        eventId: query(req.query.event_id),
        status: status as DeliveryStatus | undefined,
      }),
    });
  });
  router.post('/webhooks/deliveries/:id/replay', async (req, res) => {
    res.status(201).json(await sandbox.webhooks.replay(req.params.id!));
  });
  router.post('/webhooks/test', async (req, res) => {
    const b = object(req.body);
    const sent = await sandbox.webhooks.test({
      endpointId: optionalString(b, 'endpoint_id'),
      accountId: optionalString(b, 'account_id'),
      type: optionalString(b, 'type') as WebhookEventType | undefined,
    });
    res.json({ data: sent });
  });
  router.post('/webhooks/flush', async (_req, res) => {
    await sandbox.webhooks.flush();
    res.status(204).end();
  });
  router.delete('/webhooks/:id', (req, res) => {
    sandbox.webhooks.remove(req.params.id!);
    res.status(204).end();
  });
  return router;
}
