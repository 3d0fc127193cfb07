import { ERRORS, type ErrorCode } from '../errors.js';

// The catalogue and ApiError live in the leaf `src/errors.ts` (every layer may throw them); re-exported here.
export { ERRORS, ApiError, type ErrorCode } from '../errors.js';
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** The codes the API document itself lists. */
export const API_DOC_ERROR_CODES: readonly ErrorCode[] = [
  'missing_api_key',
  'invalid_api_key',
  'insufficient_scope',
  'rate_limit_exceeded',
  'insufficient_credits',
  'not_found',
];

/** The exact error body of the API document: `{ "error": { "code", "message" } }`. */
export function errorBody(code: string, message: string): string {
  return JSON.stringify({ error: { code, message } });
}
