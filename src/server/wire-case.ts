/**
 * The control API's wire casing: every answer leaves in snake_case (as the API's do), whatever shape the library
 * gives it in camelCase, so a field added to a library view later is converted too. A state snapshot sent back
 * (`PUT /__sandbox/state`) is read in either casing.
 */
import type { RequestHandler } from 'express';

/** A camelCase identifier: `keyId`, `nextAttemptAt`. Map keys such as `GET /ext/agents` or `acc_demo` are left alone. */
const CAMEL = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/;
/** A snake_case identifier with at least one underscore: `key_id`. */
const SNAKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;
/** Values that are the user's own data (a task's result), passed as they were given. */
const OPAQUE = new Set(['result']);

const snakeNames = new Map<string, string>();
const camelNames = new Map<string, string>();

/** `nextAttemptAt` → `next_attempt_at`; any other key as it is. */
export function snakeKey(key: string): string {
  let name = snakeNames.get(key);
  if (name === undefined) {
    name = CAMEL.test(key) ? key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) : key;
    if (snakeNames.size < 4096) snakeNames.set(key, name);
  }
  return name;
}

/** `next_attempt_at` → `nextAttemptAt`; any other key as it is. */
function camelKey(key: string): string {
  let name = camelNames.get(key);
  if (name === undefined) {
    name = SNAKE.test(key) ? key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()) : key;
    if (camelNames.size < 4096) camelNames.set(key, name);
  }
  return name;
}

function renameKeys(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => renameKeys(v, rename));
  if (value === null || typeof value !== 'object') return value;
  // toJSON first (a Date, a Map-backed view): the wire sees what JSON.stringify would.
  const plain =
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
      ? (JSON.parse(JSON.stringify(value)) as unknown)
      : value;
  if (plain === null || typeof plain !== 'object') return plain;
  if (Array.isArray(plain)) return renameKeys(plain, rename);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(plain as Record<string, unknown>))
    out[rename(k)] = OPAQUE.has(k) ? v : renameKeys(v, rename);
  return out;
}

/** A value with every camelCase key of every object in snake_case (a task's `result` untouched). */
export function toSnakeCase(value: unknown): unknown {
  return renameKeys(value, snakeKey);
}

/** A value with every snake_case key of every object in camelCase (a task's `result` untouched). */
export function toCamelCase(value: unknown): unknown {
  return renameKeys(value, camelKey);
}

/** Every `res.json(...)` after this answers in snake_case: the one place the control API's casing is decided. */
export const snakeCaseAnswers: RequestHandler = (_req, res, next) => {
  const json = res.json.bind(res);
  res.json = (body: unknown) => json(toSnakeCase(body));
  next();
};
