/** A request as the core sees it, whatever door it came through. */
export interface PlainRequest {
  method: string;
  /** Path below the base path, e.g. `/ext/agents/agt_123` (percent-encoded as received). */
  path: string;
  /** The query string without `?` (may be empty). */
  query: string;
  /** Header lookup by lower-case name. */
  header(name: string): string | undefined;
  /** The body as text ('' when none). */
  body: string;
  /** Set by a door that stopped reading a body over the limit. */
  bodyTooLarge?: boolean;
  /** Who is calling, for the anonymous rate bucket (remote address in server mode). */
  clientId: string;
}

/** A response as the core returns it; the doors turn it into msw's Response or node's ServerResponse. */
export interface PlainResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The connection should fail instead of answering (`network-error`). */
  networkError?: boolean;
  /** Real milliseconds to wait before answering (`latency`). */
  delayMs?: number;
}
