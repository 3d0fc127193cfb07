/**
 * The error catalogue: every code the sandbox answers with, its HTTP status and its default message.
 * The first six are the API document's (§7 Errors); the rest are sandbox decisions (README, "Assumptions").
 */
export const ERRORS = {
  missing_api_key: { status: 401, message: "No API key was provided. Send it as 'Authorization: Bearer ak_<key>'." },
  invalid_api_key: { status: 401, message: 'The API key is invalid or has been revoked.' },
  insufficient_scope: { status: 403, message: 'The API key lacks the scope this endpoint requires.' },
  rate_limit_exceeded: { status: 429, message: 'Rate limit exceeded: too many requests. Please slow down.' },
  insufficient_credits: { status: 402, message: 'Insufficient credits: the balance is too low to complete the request.' },
  not_found: { status: 404, message: 'The requested resource does not exist.' },
  invalid_request: { status: 400, message: 'The request is invalid.' },
  request_too_large: { status: 413, message: 'The request body is larger than 1 MiB.' },
  internal_error: { status: 500, message: 'Internal server error.' },
  service_unavailable: { status: 503, message: 'The service is temporarily unavailable. Please retry later.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** The codes the API document itself lists. */
export const API_DOC_ERROR_CODES: readonly ErrorCode[] = [
  'missing_api_key', 'invalid_api_key', 'insufficient_scope', 'rate_limit_exceeded', 'insufficient_credits', 'not_found',
];

/** An error answer of the API: a code from the catalogue and a message (the catalogue's unless given). */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string = ERRORS[code].message,
    /** Extra response headers, e.g. `Retry-After`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = ERRORS[code].status;
  }
}

/** The exact error body of the API document: `{ "error": { "code", "message" } }`. */
export function errorBody(code: string, message: string): string {
  return JSON.stringify({ error: { code, message } });
}
