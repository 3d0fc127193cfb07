import { Webhook } from 'standardwebhooks';
import { createSandbox, type Sandbox, type SandboxOptions, type WebhookRequest } from '../../src/index.js';

/** A sandbox on a manual clock. */
export function manualSandbox(options: SandboxOptions = {}): Sandbox {
  return createSandbox({ clock: 'manual', ...options });
}

/** Calls the request core directly (synchronous) with the account's admin key. */
export function api(
  sandbox: Sandbox,
  method: string,
  path: string,
  options: { accountId?: string; body?: unknown } = {},
) {
  const key = sandbox.keys.list(options.accountId ?? 'acc_demo').find((k) => k.label === 'admin' && !k.revoked)!.key;
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const res = sandbox.handle({
    method,
    path,
    query: '',
    header: (name) => headers[name],
    body: options.body === undefined ? '' : JSON.stringify(options.body),
    clientId: 'test',
  });
  return { status: res.status, json: res.body ? JSON.parse(res.body) : undefined };
}

/** POST /ext/tasks on the first available agent; returns the task. */
export function createTask(sandbox: Sandbox, accountId = 'acc_demo', extra: Record<string, unknown> = {}) {
  const agents = api(sandbox, 'GET', '/ext/agents', { accountId }).json.data as { id: string; status: string }[];
  const agent = agents.find((a) => a.status === 'available')!;
  const res = api(sandbox, 'POST', '/ext/tasks', {
    accountId,
    body: { agent_id: agent.id, description: 'Summarise the report.', ...extra },
  });
  if (res.status !== 201) throw new Error(`task not created: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json as { id: string; status: string };
}

/** An in-process receiver that records what it gets; it answers the n-th attempt of each message with statuses[n-1] (then the last). */
export function receiver(statuses: number[] = [200]) {
  const received: WebhookRequest[] = [];
  const tries = new Map<string, number>();
  return {
    received,
    callback: (request: WebhookRequest) => {
      received.push(request);
      const n = (tries.get(request.headers['webhook-id']!) ?? 0) + 1;
      tries.set(request.headers['webhook-id']!, n);
      return statuses[Math.min(n - 1, statuses.length - 1)];
    },
    types: () => received.map((r) => r.event.type),
  };
}

/** Verifies a message as a receiver would, with the standardwebhooks package; returns the parsed payload. */
export function verify(secret: string, request: { body: string; headers: Record<string, string> }): any {
  return new Webhook(secret).verify(request.body, request.headers);
}

/** An in-process endpoint of acc_demo that verifies each message: 200, or 401 when it does not verify; what it saw. */
export function verifyingEndpoint(sandbox: Sandbox): unknown[] {
  const seen: unknown[] = [];
  const { secret } = sandbox.webhooks.add({
    accountId: 'acc_demo',
    callback: (m) => {
      try {
        seen.push(verify(secret, m));
        return 200;
      } catch (error) {
        seen.push(error);
        return 401;
      }
    },
  });
  return seen;
}
