/** Neither door ever sends a stack trace: a failure inside the core leaves as 500 internal_error in the error shape. */
import { createServer } from 'node:http';
import { getResponse } from 'msw';
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/http/handlers.js';
import { createApiDoor } from '../../src/server/api-door.js';
import type { SandboxCore } from '../../src/sandbox-types.js';
import { createSandbox, type Sandbox } from '../../src/index.js';
import { keyOf } from '../support/doors.js';
import { expectError } from '../support/assert.js';

const broken = () => {
  throw new Error('boom in the core');
};

async function read(res: Response) {
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: JSON.parse(text) };
}

it('the msw door answers a failure of the core with 500 internal_error, no stack', async () => {
  const server = setupServer(...createHandlers(broken));
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const res = await read(await fetch('https://agent-work.test/api/v1/ext/agents'));
    expectError(res, 'internal_error');
    expect(res.text).not.toMatch(/boom|at /);
  } finally {
    server.close();
  }
});

it('the node door answers a failure of the core with 500 internal_error, no stack', async () => {
  const door = createApiDoor({ handle: broken, basePath: '/api/v1' } as unknown as SandboxCore);
  const server = createServer(door);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const res = await read(
      await fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1/ext/agents`),
    );
    expectError(res, 'internal_error');
    expect(res.text).not.toMatch(/boom|at /);
  } finally {
    server.close();
  }
});

it('restore() refuses times no timestamp can show, instead of failing every later request', () => {
  const sandbox = createSandbox({ clock: 'manual' });
  const snap = sandbox.snapshot();
  expect(() =>
    sandbox.restore({ ...snap, buckets: [['acc_demo', { windowStart: 1e300, count: 0, tokens: 0 }]] }),
  ).toThrow(/buckets/);
  expect(sandbox.snapshot()).toEqual(snap);
});

describe('where the handlers answer (CONTRACT §1: "default baseUrl matches any origin + /api/v1")', () => {
  const ask = async (sandbox: Sandbox, url: string) => {
    const res = await getResponse(
      sandbox.handlers,
      new Request(url, { headers: { Authorization: `Bearer ${keyOf(sandbox)}` } }),
    );
    return res && { status: res.status, json: await res.json() };
  };

  it('by default: any origin, path /api/v1/…', async () => {
    const sandbox = createSandbox({ clock: 'manual' });
    for (const origin of ['http://localhost:3000', 'https://api.agent-work.example', 'http://127.0.0.1:8080']) {
      expect((await ask(sandbox, `${origin}/api/v1/ext/usage`))?.json.account_id, origin).toBe('acc_demo');
    }
    expect(await ask(sandbox, 'http://localhost:3000/api/v2/ext/usage')).toBeUndefined();
    expect(await ask(sandbox, 'http://localhost:3000/ext/usage')).toBeUndefined();
  });

  it('with a baseUrl: that origin and path only, and Location below that path', async () => {
    const sandbox = createSandbox({ clock: 'manual', baseUrl: 'https://api.example.com/agent-work/api/v1' });
    expect((await ask(sandbox, 'https://api.example.com/agent-work/api/v1/ext/usage'))?.status).toBe(200);
    expect(await ask(sandbox, 'https://other.example.com/agent-work/api/v1/ext/usage')).toBeUndefined();
    expect(await ask(sandbox, 'https://api.example.com/api/v1/ext/usage')).toBeUndefined();
    const created = await getResponse(
      sandbox.handlers,
      new Request('https://api.example.com/agent-work/api/v1/ext/tasks', {
        method: 'POST',
        headers: { Authorization: `Bearer ${keyOf(sandbox)}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ agent_id: sandbox.snapshot().agents[0]!.id, description: 'Summarise.' }),
      }),
    );
    expect(created!.status).toBe(201);
    expect(created!.headers.get('location')).toBe(`/agent-work/api/v1/ext/tasks/${(await created!.json()).id}`);
  });
});
