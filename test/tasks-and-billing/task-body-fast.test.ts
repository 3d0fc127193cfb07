/**
 * The body of POST /ext/tasks is checked without zod when it is the common shape (src/rules/task-body.ts): the
 * result must be what the schema's parse gives, and anything else must get the schema's answer, message for message.
 * Likewise the usual `Bearer ak_…` header is read without the general steps, to the same key or error.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/rules/errors.js';
import { readBearerKey } from '../../src/rules/auth.js';
import { parseTaskBody, taskBodySchema } from '../../src/rules/task-body.js';

const ok = { agent_id: 'agt_bravo', description: 'A fine description.' };

const BODIES: unknown[] = [
  ok,
  { ...ok, priority: 'high' },
  { ...ok, priority: 'low', model: 'model-c' },
  { model: 'model-a', description: 'keys in another order', agent_id: 'agt_alpha', extra: [1, 2], more: null },
  { ...ok, description: 'x'.repeat(100_000) },
  { ...ok, description: 'x'.repeat(100_001) },
  { ...ok, description: 'ü 😀 \u2028' },
  { ...ok, description: '' },
  { ...ok, description: 7 },
  { ...ok, agent_id: '' },
  { ...ok, agent_id: null },
  { description: 'no agent' },
  { agent_id: 'agt_bravo' },
  {},
  { ...ok, priority: 'urgent' },
  { ...ok, priority: null },
  { ...ok, priority: 'HIGH' },
  { ...ok, model: 'model-z' },
  { ...ok, model: 1 },
  { ...ok, __proto__: { priority: 'high' } },
  JSON.parse('{"__proto__": {"agent_id": "agt_bravo"}, "description": "own __proto__ key"}'),
  JSON.parse('{"agent_id": "agt_bravo", "description": "a", "priority": "toString"}'),
  JSON.parse('{"agent_id": "agt_bravo", "description": "a", "model": "constructor"}'),
];

/** What the schema alone answers: the parsed body, or the message of the 400. */
function bySchema(json: unknown): { data: unknown } | { message: string } {
  const parsed = taskBodySchema().safeParse(json);
  if (parsed.success) return { data: parsed.data };
  const [issue] = parsed.error.issues;
  return { message: `Invalid field '${String(issue?.path[0])}': ${String(issue?.message)}.` };
}

function byParse(text: string): { data: unknown } | { message: string } {
  try {
    return { data: parseTaskBody(text) };
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('invalid_request');
    return { message: (error as ApiError).message };
  }
}

describe('the body of POST /ext/tasks, checked without zod when common', () => {
  it('parses to what the schema gives, and answers every other body with the schema’s message', () => {
    for (const json of BODIES) {
      const text = JSON.stringify(json);
      expect(byParse(text), text.slice(0, 80)).toStrictEqual(bySchema(JSON.parse(text)));
    }
  });
});

describe('the Authorization header, read without the general steps when usual', () => {
  const KEY = 'ak_abcDEF012_-xyz';
  const reads: [string | undefined, string][] = [
    [`Bearer ${KEY}`, KEY],
    [`Bearer ${KEY}  `, KEY],
    [`  Bearer ${KEY}`, KEY],
    [`Bearer \t ${KEY}`, KEY],
    [`bearer ${KEY}`, KEY],
    [`BEARER ${KEY}`, KEY],
    [`Bearer ak_${'a'.repeat(256)}`, `ak_${'a'.repeat(256)}`],
    [`Bearer ak_${'a'.repeat(257)}`, 'invalid_api_key'],
    [`Bearer ak_`, 'invalid_api_key'],
    [`Bearer ak_é`, 'invalid_api_key'],
    [`Bearer ${KEY} extra`, 'invalid_api_key'],
    [`Bearer ${KEY}\n`, KEY],
    ['Bearer', 'missing_api_key'],
    ['Basic ak_abc', 'missing_api_key'],
    ['', 'missing_api_key'],
    [undefined, 'missing_api_key'],
  ];
  it.each(reads)('%j reads as %s', (header, expected) => {
    let got: string;
    try {
      got = readBearerKey(header);
    } catch (error) {
      got = (error as ApiError).code;
    }
    expect(got).toBe(expected);
  });
});
