import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/index.js';
import { keyOf, type Door } from '../support/doors.js';
import { served, type Served } from './served.js';
import { verify } from './helpers.js';

let door: Door;
let hook: Served['hook'];
let req: Served['req'];
let close: Served['close'];

beforeAll(async () => {
  ({ door, hook, req, close } = await served([500, 204]));
});
afterAll(() => close());

describe('control API: webhooks', () => {
  let endpoint: { id: string; url: string; secret: string };

  it('POST /__sandbox/accounts/:id/webhooks registers an endpoint: 201 { id, url, secret }', async () => {
    const res = await req('POST', '/accounts/acc_demo/webhooks', { url: hook.url });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      id: expect.stringMatching(/^ep_/),
      account_id: 'acc_demo',
      url: hook.url,
      secret: expect.stringMatching(/^whsec_/),
    });
    endpoint = res.json;
    expect((await req('GET', '/accounts/acc_demo/webhooks')).json).toEqual({ data: [endpoint] });
    expect((await req('GET', '/webhooks')).json.data).toEqual([endpoint]);
  });

  it('refuses a Free account in the error shape, naming the plan rule', async () => {
    const res = await req('POST', '/accounts/acc_free/webhooks', { url: hook.url });
    expect(res.status).toBe(ERRORS.invalid_request.status);
    expect(res.json).toEqual({
      error: {
        code: 'invalid_request',
        message: "Webhooks are a feature of the Pro and Enterprise plans; account 'acc_free' is on the Free plan.",
      },
    });
    expect((await req('POST', '/accounts/acc_nope/webhooks', { url: hook.url })).status).toBe(404);
    expect((await req('POST', '/accounts/acc_demo/webhooks', { url: 42 })).json.error.code).toBe('invalid_request');
    expect((await req('POST', '/accounts/acc_demo/webhooks', {})).json.error.code).toBe('invalid_request');
    expect((await req('GET', '/accounts/acc_demo/webhooks')).json.data).toHaveLength(1);
  });

  it('a task over the API reaches the receiver over a real socket, retried after a 500; deliveries are journaled', async () => {
    const key = keyOf(door.sandbox);
    const agents = await door.call('GET', '/ext/agents', { key });
    const created = await door.call('POST', '/ext/tasks', {
      key,
      body: {
        agent_id: agents.json.data.find((a: { status: string }) => a.status === 'available').id,
        description: 'Classify these.',
      },
    });
    expect(created.status).toBe(201);
    await hook.count(1);
    expect((await req('POST', '/webhooks/flush')).status).toBe(204);
    let [d] = (await req('GET', '/webhooks/deliveries')).json.data;
    expect(d).toMatchObject({ event_type: 'task.created', status: 'pending', attempts: [{ status: 500 }] });
    await req('POST', '/clock', { advance: '1m' });
    await hook.count(4);
    await req('POST', '/webhooks/flush');
    const all = (await req('GET', '/webhooks/deliveries')).json.data;
    expect(all.map((x: { event_type: string; status: string }) => [x.event_type, x.status])).toEqual([
      ['task.created', 'succeeded'],
      ['task.started', 'succeeded'],
      ['task.completed', 'succeeded'],
    ]);
    [d] = all;
    expect(d.attempts.map((a: { status: number }) => a.status)).toEqual([500, 204]);
    expect(typeof d.attempts[0].latency_ms).toBe('number');
    for (const m of hook.received) expect(verify(endpoint.secret, m).data.task.id).toBe(created.json.id);
    expect((await req('GET', '/webhooks/deliveries?status=failed')).json.data).toEqual([]);
    expect((await req('GET', '/webhooks/deliveries?status=bogus')).status).toBe(400);
  });

  it('POST /__sandbox/webhooks/deliveries/:id/replay sends a delivery again', async () => {
    const [d] = (await req('GET', '/webhooks/deliveries')).json.data;
    const before = hook.received.length;
    const res = await req('POST', `/webhooks/deliveries/${d.id}/replay`);
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ replay_of: d.id, event_id: d.event_id, status: 'succeeded' });
    expect(hook.received).toHaveLength(before + 1);
    expect(hook.received.at(-1)!.headers['webhook-id']).toBe(d.event_id);
    expect((await req('POST', '/webhooks/deliveries/dlv_nope/replay')).status).toBe(404);
  });

  it('POST /__sandbox/webhooks/test sends a signed sample event', async () => {
    const res = await req('POST', '/webhooks/test', { endpoint_id: endpoint.id, type: 'task.failed' });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual([expect.objectContaining({ event_type: 'task.failed', status: 'succeeded' })]);
    expect(verify(endpoint.secret, hook.received.at(-1)!)).toMatchObject({
      type: 'task.failed',
      data: { task: { status: 'failed' } },
    });
    expect((await req('POST', '/webhooks/test', { type: 'nope' })).status).toBe(400);
  });

  it('DELETE /__sandbox/webhooks/:id removes the endpoint: 204, then 404', async () => {
    expect((await req('DELETE', `/webhooks/${endpoint.id}`)).status).toBe(204);
    expect((await req('DELETE', `/webhooks/${endpoint.id}`)).json.error.code).toBe('not_found');
    expect((await req('GET', '/accounts/acc_demo/webhooks')).json.data).toEqual([]);
  });
});
