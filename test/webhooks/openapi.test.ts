import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { createOpenApiDocument, WEBHOOK_EVENT_TYPES } from '../../src/index.js';
import { WebhookCreditsLowEventSchema, WebhookTaskEventSchema } from '../../src/core/webhook-schemas.js';
import { createTask, manualSandbox, receiver } from './helpers.js';

describe('the OpenAPI document: webhooks', () => {
  it('has a webhooks entry for every event type, and still validates (swagger-parser)', async () => {
    const doc = createOpenApiDocument() as any;
    expect(Object.keys(doc.webhooks)).toEqual([...WEBHOOK_EVENT_TYPES]);
    const api = (await SwaggerParser.validate(structuredClone(doc))) as any;
    expect(Object.keys(api.webhooks)).toHaveLength(WEBHOOK_EVENT_TYPES.length);
  });

  it('each entry names the three Standard Webhooks headers, required, and its payload schema', async () => {
    const doc = (await SwaggerParser.dereference(structuredClone(createOpenApiDocument()) as never)) as any;
    for (const type of WEBHOOK_EVENT_TYPES) {
      const post = doc.webhooks[type].post;
      expect(post.parameters.map((p: any) => [p.name, p.in, p.required])).toEqual([
        ['webhook-id', 'header', true],
        ['webhook-timestamp', 'header', true],
        ['webhook-signature', 'header', true],
      ]);
      const schema = post.requestBody.content['application/json'].schema;
      expect(schema.required).toEqual(['id', 'created_at', 'type', 'data']);
      expect(type === 'credits.low' ? schema.properties.type.const : schema.properties.type.enum).toEqual(
        type === 'credits.low' ? 'credits.low' : expect.arrayContaining([type]),
      );
    }
  });

  it('the events a delivery carries match the schemas the document is made from', async () => {
    const sandbox = manualSandbox({ webhooks: { lowBalanceUsd: 1_000_000 } });
    const r = receiver();
    sandbox.webhooks.add({ accountId: 'acc_demo', callback: r.callback });
    createTask(sandbox);
    createTask(sandbox, 'acc_demo', { description: 'x'.repeat(10) });
    sandbox.clock.advance('1m');
    await sandbox.webhooks.flush();
    expect(new Set(r.types())).toEqual(new Set(['task.created', 'task.started', 'task.completed', 'credits.low']));
    for (const { event } of r.received) {
      const schema = event.type === 'credits.low' ? WebhookCreditsLowEventSchema : WebhookTaskEventSchema;
      expect(() => schema.parse(event)).not.toThrow();
    }
  });
});
