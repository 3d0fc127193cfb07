import { afterAll, beforeAll, expect, it } from 'vitest';
import { inProcess, keyOf, type Door } from './support/doors.js';

let door: Door;
beforeAll(() => {
  door = inProcess({ clock: 'manual' });
});
afterAll(() => door.close());

it('lists agents in-process with an admin key', async () => {
  const res = await door.call('GET', '/ext/agents', { key: keyOf(door.sandbox) });
  expect(res.status).toBe(200);
  expect(res.headers.get('x-ratelimit-limit')).toBe('300');
  expect(res.json.data).toHaveLength(20);
});
