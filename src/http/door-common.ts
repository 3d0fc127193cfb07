/** What every door shares (the 500 answer), and what the two in-process doors share (their client id). */
import { JSON_CONTENT_TYPE } from '../core/handle.js';
import type { PlainResponse } from '../core/types.js';
import { ERRORS, errorBody } from '../rules/errors.js';

/** The answer to a request the core threw on: a 500 in the error shape, never a stack (every door uses it). */
export const INTERNAL_ERROR: PlainResponse = {
  status: 500,
  headers: { 'Content-Type': JSON_CONTENT_TYPE },
  body: errorBody('internal_error', ERRORS.internal_error.message),
};

/** The client id of a request through an in-process door (msw's or `sandbox.fetch`): its rate buckets and the journal's. */
export const IN_PROCESS_CLIENT = 'in-process';
