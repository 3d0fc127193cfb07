/** Header names whose whole value is a credential. */
const SECRET_HEADERS = new Set(['authorization', 'cookie', 'x-sandbox-control-token']);

/** A journal entry's headers as shown: names lower-cased, credentials and keys masked. */
export function maskedHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    out[maskKeys(lower)] =
      SECRET_HEADERS.has(lower) && !value.includes('ak_') ? (value === '' ? '' : '…') : maskKeys(value);
  }
  return out;
}

/**
 * API keys in a text (a path, a query, a header, a body) shown masked: `ak_AbCd…` (a short one as `ak_…`). No log
 * holds a whole key, in any encoding: percent-escapes (`ak%5F…`, `%61k_…`, encoded again and again) and JSON escapes
 * (`\u0061k_…`) are decoded until nothing changes, and when a key shows up decoded the decoded text is what is kept,
 * masked. A text still encoded after `DECODE_ROUNDS` rounds is suspicious: it is hidden whole.
 */
export function maskKeys(text: string): string {
  if (text.includes('%') || text.includes('\\u')) {
    const decoded = decodeAll(text);
    if (decoded === undefined) return STILL_ENCODED;
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
const JSON_ESCAPE = /\\u([0-9A-Fa-f]{4})/g;
/** Rounds of decoding at most: far more than any honest client encodes, and a bound on the work. */
const DECODE_ROUNDS = 16;

/** What stands for a text that is still encoded after every round of decoding. */
export const STILL_ENCODED = `[hidden: still encoded after ${DECODE_ROUNDS} rounds of decoding]`;

/**
 * Percent- and JSON escapes decoded until nothing changes (bytes that are not UTF-8 stay as given); undefined when
 * the text still changes after `DECODE_ROUNDS` rounds.
 */
function decodeAll(text: string): string | undefined {
  let out = text;
  for (let round = 0; round <= DECODE_ROUNDS; round++) {
    const next = out
      .replace(ESCAPES, (run) => {
        try {
          return decodeURIComponent(run);
        } catch {
          return run;
        }
      })
      .replace(JSON_ESCAPE, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    if (next === out) return out;
    out = next;
  }
  return undefined;
}

/** One key, masked: its first four characters after `ak_` when it is long enough to keep most of it hidden. */
export function maskKey(key: string): string {
  return key.length >= 15 ? `${key.slice(0, 7)}…` : `${key.slice(0, 3)}…`;
}
