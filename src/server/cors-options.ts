/** CORS of the API: headers a browser client may send, and those it may read. */
export const API_CORS_OPTIONS = {
  origin: '*',
  methods: ['GET', 'POST'],
  allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Sandbox-Scenario', 'X-Sandbox-Explain'],
  exposedHeaders: [
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-RateLimit-Reset',
    'Retry-After',
    'Location',
    'Idempotent-Replayed',
    'X-Sandbox-Trace',
    'X-Sandbox-Request-Id',
  ],
  maxAge: 600,
};
