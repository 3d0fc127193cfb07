/** Assertions shared by the contract, read-endpoint and server tests: the error shape and the rate-limit headers. */
import { expect } from 'vitest';
import { ERRORS, type ErrorCode } from '../../src/rules/errors.js';
import type { Answer } from './doors.js';

/** ISO 8601 UTC, as `X-RateLimit-Reset` must be. */
export const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/;

/** The error body is exactly `{ "error": { "code", "message" } }`, both strings, with the catalogue's status. */
export function expectError(res: Answer, code: ErrorCode): void {
  expect(res.status, `status of ${code}: ${res.text}`).toBe(ERRORS[code].status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Object.keys(res.json ?? {})).toEqual(['error']);
  expect(Object.keys(res.json.error).sort()).toEqual(['code', 'message']);
  expect(res.json.error.code).toBe(code);
  expect(typeof res.json.error.message).toBe('string');
  expect(res.json.error.message.length).toBeGreaterThan(0);
}

const INTEGER = /^(0|[1-9][0-9]*)$/;

/** The three rate-limit headers: integers, and an ISO 8601 UTC reset; exact values where given. */
export function expectRateHeaders(
  res: Answer,
  want: { limit?: number; remaining?: number; resetAt?: number } = {},
): void {
  const limit = res.headers.get('x-ratelimit-limit');
  const remaining = res.headers.get('x-ratelimit-remaining');
  const reset = res.headers.get('x-ratelimit-reset');
  expect(limit, 'X-RateLimit-Limit').toMatch(INTEGER);
  expect(remaining, 'X-RateLimit-Remaining').toMatch(INTEGER);
  expect(reset, 'X-RateLimit-Reset').toMatch(ISO_UTC);
  expect(Number(remaining)).toBeLessThanOrEqual(Number(limit));
  if (want.limit !== undefined) expect(Number(limit), 'X-RateLimit-Limit').toBe(want.limit);
  if (want.remaining !== undefined) expect(Number(remaining), 'X-RateLimit-Remaining').toBe(want.remaining);
  if (want.resetAt !== undefined) expect(Date.parse(reset!), 'X-RateLimit-Reset').toBe(want.resetAt);
}
