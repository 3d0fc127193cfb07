/** Header names whose whole value is a credential. */
const SECRET_HEADERS = new Set(['authorization', 'cookie', 'x-sandbox-control-token']);

/** A journal entry's headers as shown: names lower-cased, credentials and keys masked. */
export function maskedHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    out[lower] = SECRET_HEADERS.has(lower) && !value.includes('ak_') ? (value === '' ? '' : '…') : maskKeys(value);
  }
  return out;
}

/**
 * API keys in a text (a path, a query, a header, a body) shown masked: `ak_AbCd…` (a short one as `ak_…`). No log
 * holds a whole key, in any encoding: a text with percent-escapes (`ak%5F…`, `%61k_…`, twice encoded) is decoded
 * first, and when a key shows up decoded the decoded text is what is kept, masked.
 */
export function maskKeys(text: string): string {
  if (text.includes('%')) {
    const decoded = decodeAll(text);
    if (KEY_ANYCASE.test(decoded)) return decoded.replace(KEY_PATTERN_ANYCASE, maskOnce);
  }
  return KEY_ANYCASE.test(text) ? text.replace(KEY_PATTERN_ANYCASE, maskOnce) : text;
}

/**
 * A key masked, unless it already is: at most `maskKey`'s 7 characters followed by `…` (masking a masked text leaves
 * it as it is; a longer run before a `…` is still masked, so a whole key cannot slip through that way).
 */
function maskOnce(key: string, offset: number, text: string): string {
  return key.length <= 7 && text.charCodeAt(offset + key.length) === 0x2026 ? key : maskKey(key);
}

const KEY_ANYCASE = /ak_/i;
const KEY_PATTERN_ANYCASE = /ak_[A-Za-z0-9_-]+/gi;
const ESCAPES = /(?:%[0-9A-Fa-f]{2})+/g;

/** Percent-escapes decoded, up to three rounds (a key encoded twice or thrice); bytes that are not UTF-8 stay as given. */
function decodeAll(text: string): string {
  let out = text;
  for (let round = 0; round < 3 && out.includes('%'); round++) {
    const next = out.replace(ESCAPES, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
    if (next === out) break;
    out = next;
  }
  return out;
}

/** One key, masked: its first four characters after `ak_` when it is long enough to keep most of it hidden. */
export function maskKey(key: string): string {
  return key.length >= 15 ? `${key.slice(0, 7)}…` : `${key.slice(0, 3)}…`;
}
