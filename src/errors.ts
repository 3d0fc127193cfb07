/**
 * The error catalogue of the API and the package's one error tree. A leaf: it imports nothing, so every layer may
 * throw these. Every error the package throws is a `SandboxError` with a stable `code` (docs/reference/errors.md).
 */

/**
 * The error catalogue: every code the sandbox answers with, its HTTP status and its default message.
 * The first six are the API document's (§7 Errors); the rest are sandbox decisions (docs/reference/assumptions.md).
 */
export const ERRORS = {
  missing_api_key: { status: 401, message: "No API key was provided. Send it as 'Authorization: Bearer ak_<key>'." },
  invalid_api_key: { status: 401, message: 'The API key is invalid or has been revoked.' },
  insufficient_scope: { status: 403, message: 'The API key lacks the scope this endpoint requires.' },
  rate_limit_exceeded: { status: 429, message: 'Rate limit exceeded: too many requests. Please slow down.' },
  insufficient_credits: {
    status: 402,
    message: 'Insufficient credits: the balance is too low to complete the request.',
  },
  not_found: { status: 404, message: 'The requested resource does not exist.' },
  invalid_request: { status: 400, message: 'The request is invalid.' },
  request_too_large: { status: 413, message: 'The request body is larger than 1 MiB.' },
  internal_error: { status: 500, message: 'Internal server error.' },
  service_unavailable: { status: 503, message: 'The service is temporarily unavailable. Please retry later.' },
} as const satisfies Record<string, { status: number; message: string }>;

/** A code of the API's error answers (`{ "error": { "code", "message" } }`). */
export type ErrorCode = keyof typeof ERRORS;

/** The `code` of every error the package throws: an API code (`ApiError`, `SandboxError`) or the class's own. */
export type SandboxErrorCode =
  | ErrorCode
  | 'invalid_fixtures'
  | 'invalid_clock'
  | 'invalid_snapshot'
  | 'invalid_scenario'
  | 'state_file'
  | 'invalid_usage'
  | 'start_failed'
  | 'webhook_timeout';

/**
 * The base of every error of the package; thrown itself for a misuse of the library or the control API (an unknown
 * id: `not_found`; a bad option or a plan rule: `invalid_request`), with the package's name before the message.
 */
export class SandboxError extends Error {
  override name = 'SandboxError';
  /** Stable: match on it (or on the class), not on the message. */
  readonly code: SandboxErrorCode;
  constructor(message: string, code: SandboxErrorCode = 'invalid_request', options?: ErrorOptions) {
    super(new.target === SandboxError ? `[agent-work-sandbox] ${message}` : message, options);
    this.code = code;
  }
}

/** An error answer of the API: a code from the catalogue and a message (the catalogue's unless given). */
export class ApiError extends SandboxError {
  override name = 'ApiError';
  declare readonly code: ErrorCode;
  readonly status: number;
  constructor(
    code: ErrorCode,
    message: string = ERRORS[code].message,
    /** Extra response headers, e.g. `Retry-After`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message, code);
    this.status = ERRORS[code].status;
  }
}

/** A fixture set that is not valid: the message names the source, the path in it and what is wrong. */
export class FixtureError extends SandboxError {
  override name = 'FixtureError';
  declare readonly code: 'invalid_fixtures';
  constructor(message: string) {
    super(message, 'invalid_fixtures');
  }
}

/** A clock move that cannot be made (a bad duration or date, or out of range). */
export class ClockError extends SandboxError {
  override name = 'ClockError';
  declare readonly code: 'invalid_clock';
  constructor(message: string) {
    super(message, 'invalid_clock');
  }
}

/** A value given to `restore()` (or a state file) that is not a state snapshot this version reads. */
export class SnapshotError extends SandboxError {
  override name = 'SnapshotError';
  declare readonly code: 'invalid_snapshot';
  constructor(message: string) {
    super(message, 'invalid_snapshot');
  }
}

/** An unknown scenario, or an option a scenario does not take. */
export class ScenarioError extends SandboxError {
  override name = 'ScenarioError';
  declare readonly code: 'invalid_scenario';
  constructor(message: string) {
    super(message, 'invalid_scenario');
  }
}

/** A state file (`--state`) that cannot be read, written or loaded. */
export class StateFileError extends SandboxError {
  override name = 'StateFileError';
  declare readonly code: 'state_file';
  constructor(message: string) {
    super(message, 'state_file');
  }
}

/** A bad command line of the CLI (it exits with status 2). */
export class UsageError extends SandboxError {
  override name = 'UsageError';
  declare readonly code: 'invalid_usage';
  constructor(message: string) {
    super(message, 'invalid_usage');
  }
}

/** The CLI's server could not start: the port is in use, no permission, no such address (the CLI exits with status 1). */
export class StartError extends SandboxError {
  override name = 'StartError';
  declare readonly code: 'start_failed';
  constructor(message: string) {
    super(message, 'start_failed');
  }
}

/** A webhook receiver that did not answer in time (recorded on the delivery attempt, never thrown to a caller). */
export class WebhookTimeoutError extends SandboxError {
  override name = 'WebhookTimeoutError';
  declare readonly code: 'webhook_timeout';
  constructor(message = 'The webhook receiver did not answer in time.') {
    super(message, 'webhook_timeout');
  }
}
