import express from 'express';
import { SandboxError } from '../errors.js';
import type { SandboxCore as Sandbox } from '../sandbox-types.js';
import { controlBodies } from '../schemas.js';
import { body } from './control-body.js';
import type { WebhookEventType } from '../webhooks/events.js';
import type { DeliveryStatus, WebhookEndpoint } from '../webhooks/types.js';

const query = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function toEndpointJson(e: WebhookEndpoint) {
  return { id: e.id, account_id: e.accountId, url: e.url, secret: e.secret, created_at: e.createdAt };
}

/**
 * The webhook routes of the control API: endpoints per account, the delivery journal, replay, a test event and an
 * event from the current state (trigger).
 * Deliveries are shown as the library shows them (like the request journal).
 */
export function createWebhooksRouter(sandbox: Sandbox): express.Router {
  const router = express.Router();
  router.post('/accounts/:id/webhooks', (req, res) => {
    const b = body(controlBodies.webhookAdd, req);
    res
      .status(201)
      .json(toEndpointJson(sandbox.webhooks.add({ accountId: req.params.id, url: b.url, secret: b.secret })));
  });
  router.get('/accounts/:id/webhooks', (req, res) => {
    if (!sandbox.accounts.get(req.params.id)) throw new SandboxError(`No account '${req.params.id}'.`, 'not_found');
    res.json({ data: sandbox.webhooks.list(req.params.id).map(toEndpointJson) });
  });
  router.get('/webhooks', (req, res) => {
    res.json({ data: sandbox.webhooks.list(query(req.query.account_id)).map(toEndpointJson) });
  });
  router.get('/webhooks/deliveries', (req, res) => {
    const status = query(req.query.status);
    if (status !== undefined && !['pending', 'succeeded', 'failed'].includes(status))
      throw new SandboxError('status must be pending, succeeded or failed.');
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
    res.status(201).json(await sandbox.webhooks.replay(req.params.id));
  });
  router.post('/webhooks/test', async (req, res) => {
    const b = body(controlBodies.webhookTest, req);
    const sent = await sandbox.webhooks.test({
      endpointId: b.endpoint_id,
      accountId: b.account_id,
      type: b.type as WebhookEventType | undefined,
    });
    res.json({ data: sent });
  });
  router.post('/webhooks/trigger', async (req, res) => {
    const b = body(controlBodies.webhookTrigger, req);
    const sent = await sandbox.webhooks.trigger(b.type as WebhookEventType, {
      taskId: b.task_id,
      accountId: b.account_id,
      overrides: b.overrides,
    });
    res.json({ data: sent });
  });
  router.post('/webhooks/flush', async (_req, res) => {
    await sandbox.webhooks.flush();
    res.status(204).end();
  });
  router.delete('/webhooks/:id', (req, res) => {
    sandbox.webhooks.remove(req.params.id);
    res.status(204).end();
  });
  return router;
}
