/** Neither door ever sends a stack trace: a failure inside the core leaves as 500 internal_error in the error shape. */
import { createServer } from 'node:http';
import { setupServer } from 'msw/node';
import { expect, it } from 'vitest';
import { createHandlers } from '../src/http/handlers.js';
import { createApiDoor } from '../src/server/api-door.js';
import type { SandboxCore } from '../src/sandbox.js';
import { createSandbox } from '../src/index.js';
import { expectError } from './support/assert.js';

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
  const door = createApiDoor({ handle: broken } as unknown as SandboxCore, '/api/v1');
  const server = createServer(door);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const res = await read(await fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1/ext/agents`));
    expectError(res, 'internal_error');
    expect(res.text).not.toMatch(/boom|at /);
  } finally {
    server.close();
  }
});

it('restore() refuses times no timestamp can show, instead of failing every later request', () => {
  const sandbox = createSandbox({ clock: 'manual' });
  const snap = sandbox.snapshot();
  expect(() => sandbox.restore({ ...snap, buckets: [['acc_demo', { windowStart: 1e300, count: 0, tokens: 0 }]] })).toThrow(/buckets/);
  expect(sandbox.snapshot()).toEqual(snap);
});
