import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, type ErrorCode } from '../../src/index.js';
import { DOORS, type Door } from '../support/doors.js';
import { ADMIN, OPTIONS, moneyAndTasks } from './support.js';

const ok = { agent_id: 'agt_bravo', description: 'A fine description.' };

/** CONTRACT §3.5: every bad body, its answer, and the text its message must contain (the field it names). */
const BAD_BODIES: { rule: string; body: string; code: ErrorCode; names: string }[] = [
  { rule: 'not JSON', body: '{"agent_id": "agt_bravo",', code: 'invalid_request', names: 'JSON' },
  { rule: 'an empty body (not JSON)', body: '', code: 'invalid_request', names: 'JSON' },
  { rule: 'not an object: an array', body: '[]', code: 'invalid_request', names: 'JSON object' },
  { rule: 'not an object: a string', body: '"agt_bravo"', code: 'invalid_request', names: 'JSON object' },
  { rule: 'not an object: null', body: 'null', code: 'invalid_request', names: 'JSON object' },
  { rule: 'not an object: a number', body: '42', code: 'invalid_request', names: 'JSON object' },
  {
    rule: 'a missing agent_id',
    body: JSON.stringify({ description: 'x' }),
    code: 'invalid_request',
    names: "'agent_id'",
  },
  {
    rule: 'an ill-typed agent_id (number)',
    body: JSON.stringify({ ...ok, agent_id: 42 }),
    code: 'invalid_request',
    names: "'agent_id'",
  },
  {
    rule: 'an ill-typed agent_id (null)',
    body: JSON.stringify({ ...ok, agent_id: null }),
    code: 'invalid_request',
    names: "'agent_id'",
  },
  {
    rule: 'a missing description',
    body: JSON.stringify({ agent_id: 'agt_bravo' }),
    code: 'invalid_request',
    names: "'description'",
  },
  {
    rule: 'an ill-typed description (array)',
    body: JSON.stringify({ ...ok, description: ['x'] }),
    code: 'invalid_request',
    names: "'description'",
  },
  {
    rule: 'an empty description',
    body: JSON.stringify({ ...ok, description: '' }),
    code: 'invalid_request',
    names: "'description'",
  },
  {
    rule: 'a description over 100,000 characters',
    body: JSON.stringify({ ...ok, description: 'x'.repeat(100_001) }),
    code: 'invalid_request',
    names: "'description'",
  },
  {
    rule: 'an unknown priority',
    body: JSON.stringify({ ...ok, priority: 'asap' }),
    code: 'invalid_request',
    names: "'priority'",
  },
  {
    rule: 'an ill-typed priority',
    body: JSON.stringify({ ...ok, priority: 3 }),
    code: 'invalid_request',
    names: "'priority'",
  },
  {
    rule: 'an unknown model',
    body: JSON.stringify({ ...ok, model: 'model-z' }),
    code: 'invalid_request',
    names: "'model'",
  },
  {
    rule: 'a model in the wrong case',
    body: JSON.stringify({ ...ok, model: 'Model-A' }),
    code: 'invalid_request',
    names: "'model'",
  },
  {
    rule: 'a body over 1 MiB',
    body: JSON.stringify({ ...ok, description: 'x'.repeat(1024 * 1024) }),
    code: 'request_too_large',
    names: '1 MiB',
  },
  {
    rule: 'a body over 1 MiB that is not even JSON',
    body: '{'.repeat(1024 * 1024 + 1),
    code: 'request_too_large',
    names: '1 MiB',
  },
  {
    rule: 'an agent_id that does not exist',
    body: JSON.stringify({ ...ok, agent_id: 'agt_nobody' }),
    code: 'not_found',
    names: "'agt_nobody'",
  },
];

describe.each(DOORS)('CONTRACT §3.5, bad bodies of POST /ext/tasks (%s)', (_kind, open) => {
  let door: Door;
  beforeAll(async () => {
    door = await open(OPTIONS);
  });
  afterAll(() => door.close());

  it.each(BAD_BODIES)('$rule → $code, the message names it, and nothing is created', async ({ body, code, names }) => {
    const before = moneyAndTasks(door.sandbox.snapshot());
    const res = await door.call('POST', '/ext/tasks', {
      key: ADMIN.pro,
      body,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(ERRORS[code].status);
    expect(Object.keys(res.json)).toEqual(['error']);
    expect(Object.keys(res.json.error)).toEqual(['code', 'message']);
    expect(res.json.error.code).toBe(code);
    expect(res.json.error.message).toContain(names);
    expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(moneyAndTasks(door.sandbox.snapshot())).toEqual(before);
  });

  it('a description of exactly 100,000 characters is accepted', async () => {
    const res = await door.call('POST', '/ext/tasks', {
      key: ADMIN.pro,
      body: { ...ok, description: 'y'.repeat(100_000) },
    });
    expect(res.status).toBe(201);
  });
});
