/** A request as the core sees it, whatever door it came through. */
export interface PlainRequest {
  method: string;
  /** Path below the base path, e.g. `/ext/agents/agt_123` (percent-encoded as received). */
  path: string;
  /** The query string without `?` (may be empty). */
  query: string;
  /** Header lookup by lower-case name. */
  header(name: string): string | undefined;
  /** The door's own headers, for the journal: node's plain object is held as it is, a fetch `Headers` is copied. */
  headers?: Headers | Record<string, string | string[] | undefined>;
  /** The body as text ('' when none). */
  body: string;
  /** Set by a door that stopped reading a body over the limit. */
  bodyTooLarge?: boolean;
  /** Who is calling, for the anonymous rate bucket (remote address in server mode). */
  clientId: string;
  /**
   * Set by a door with handlers of its own (`handlers` option): a request that passes the key and rate checks but
   * matches no route is answered with `unmatched` set, so the door can try its handlers.
   */
  passUnmatched?: boolean;
}

/** The caller of a request no route matched, and how the door reports what it answered instead of the 404. */
interface Unmatched {
  accountId: string;
  keyId: string;
  scopes: string[];
  /** Records the final answer in the journal (call exactly once). */
  record(status: number, code: string | null): void;
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
  /**
   * With `passUnmatched`: no route matched. The response is the 404 the core would send, with the rate-limit
   * headers; the door may answer otherwise and then calls `record`.
   */
  unmatched?: Unmatched;
}
