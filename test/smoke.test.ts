import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSandbox } from '../src/index.js';

const sandbox = createSandbox({ clock: 'manual' });
const server = setupServer(...sandbox.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

it('lists agents in-process with an admin key', async () => {
  const key = sandbox.keys.list().find((k) => k.label === 'admin')!.key;
  const res = await fetch('https://api.example.com/api/v1/ext/agents', { headers: { Authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('x-ratelimit-limit')).toBe('300');
  const body = await res.json();
  expect(body.data).toHaveLength(20);
});
