/**
 * The path and query of a URL given to `sandbox.fetch` as a string, read without building a `URL` (about a
 * microsecond a call) when the string is already in the form the URL parser would give back: an `http(s)` origin
 * without user info, then only characters that neither the path nor the query re-encodes, and no dot segment.
 * Anything else (and a URL with a base the string does not start with as written) goes through `URL` as before.
 */

/** A host the parser keeps valid as written: a domain whose last label starts with a letter, or a dotted IPv4. */
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const HOST = `(?:(?:[A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*|(?:${OCTET}\\.){3}${OCTET})`;
/** Path and query characters that the WHATWG parser keeps as they are (`'` is re-encoded in a special query). */
const PATH = "[A-Za-z0-9\\-._~!$&'()*+,;=:@%/]*";
const QUERY = '[A-Za-z0-9\\-._~!$&()*+,;=:@%/?]*';
/** `http(s)://host[:port]/path[?query]`; no IDNA label (`xn--`), which the parser would check. */
const PLAIN_URL = new RegExp(`^https?://(?![^/]*[xX][nN]--)${HOST}(?::([0-9]{1,5}))?(/${PATH})(?:\\?(${QUERY}))?$`);

/** Anything that might be a dot segment: `/.` or a percent-encoded dot. */
const DOT_SEGMENT = /\/\.|%2e/i;

/** Where a request goes below the base path: the path (starting with `/`) and the query without `?`. */
export interface BelowBase {
  path: string;
  query: string;
}

/**
 * Splits a URL string the way `new URL(input)` would (`pathname` below the base path, `search` without `?`).
 * @param baseSlash the sandbox's base URL with a trailing `/`, exactly as the URL parser writes it (`undefined`:
 *   any origin, the base path found in the path as with `URL`).
 * @returns the path and query, `null` when the URL is of that form but not below the base, or `undefined` when the
 *   string is not of the plain form (the caller parses it with `URL`).
 */
export function splitPlainUrl(
  input: string,
  baseSlash: string | undefined,
  basePath: string,
): BelowBase | null | undefined {
  const m = PLAIN_URL.exec(input);
  if (m === null || Number(m[1] ?? 0) > 65535) return undefined;
  const pathname = m[2] as string;
  // Dot segments (`/./`, `/../`, a trailing `/.`, also written `%2e`) are resolved by the parser: left to it.
  if (DOT_SEGMENT.test(pathname)) return undefined;
  const query = m[3] ?? '';
  if (baseSlash !== undefined) {
    // Not below the base as written: the parser's normalising (host case, default port) may still put it there.
    if (!input.startsWith(baseSlash)) return undefined;
    return { path: pathname.slice(basePath.length), query };
  }
  const at = pathname.indexOf(`${basePath}/`);
  return at === -1 ? null : { path: pathname.slice(at + basePath.length), query };
}
