// The README's Vitest quick start, as written there (keep the two in step).
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';

const sandbox = createSandbox({ clock: 'manual' });
const server = setupServer(...sandbox.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => sandbox.reset());
afterAll(() => server.close());

it('completes a task', async () => {
  const { key } = sandbox.keys.create({ scopes: ['read:agents', 'write:tasks', 'read:tasks'] });
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  const agents = await (await fetch('https://api.example.com/api/v1/ext/agents', { headers })).json();
  const created = await fetch('https://api.example.com/api/v1/ext/tasks', {
    method: 'POST',
    headers,
    body: JSON.stringify({ agent_id: agents.data[0].id, description: 'Hello' }),
  });
  expect(created.status).toBe(201);
  const task = await created.json();
  sandbox.clock.advance('30s');
  const done = await (await fetch(`https://api.example.com/api/v1/ext/tasks/${task.id}`, { headers })).json();
  expect(done.status).toBe('completed');
});
