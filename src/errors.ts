/** An error in how the sandbox library or control API is used (unknown id, bad option, plan rule). */
export class SandboxError extends Error {
  override name = 'SandboxError';
  constructor(
    message: string,
    /** The API error code the control API answers with. */
    readonly code: 'invalid_request' | 'not_found' = 'invalid_request',
  ) {
    super(`[agent-work-sandbox] ${message}`);
  }
}
