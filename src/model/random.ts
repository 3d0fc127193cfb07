/** Deterministic randomness that needs no stream state: every draw is derived from (seed, label). */

/** cyrb53: a fast 53-bit string hash. */
export function hash53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * sfc32: a small seeded generator of floats in [0, 1) with 128 bits of state, so that streams drawn for different
 * labels do not collide (a 32-bit state repeats after ~2^16 labels by the birthday bound: ids would clash). The state
 * is kept as signed 32-bit integers (the same bits as the usual unsigned form): those stay small integers in the
 * closure, where unsigned values of 2^31 and above would be a new heap number per store (garbage for every task
 * created).
 */
function sfc32(a: number, b: number, c: number, d: number): () => number {
  return () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

/** A generator for one labelled purpose under a sandbox seed (106 bits of seed material from two hashes). */
export function rngFor(seed: number, label: string): () => number {
  const h1 = hash53(label, seed);
  const h2 = hash53(label, seed ^ 0x5bd1e995);
  // `| 0` keeps the low 32 bits (as `>>> 0` did, signed); the high parts are under 2^21, so `| 0` is their floor.
  const rand = sfc32(h1 | 0, (h1 / 4294967296) | 0, h2 | 0, (h2 / 4294967296) | 0);
  for (let i = 0; i < 12; i++) rand(); // mix the state before the first draw
  return rand;
}

/** Integer in [min, max]. */
export function intBetween(rand: () => number, min: number, max: number): number {
  return min + Math.floor(rand() * (max - min + 1));
}

const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The character codes of one string being drawn (a string is at most a prefix and 32 drawn characters). */
const codes: number[] = [];

/**
 * `prefix` + `length` characters drawn from `alphabet`, as one flat string. Built by `+=`, it would be a copy per
 * character up to 12 and a rope node per character beyond, which the first hash or quote of the id then copies flat
 * once more.
 */
function randomString(rand: () => number, length: number, alphabet = ID_ALPHABET, prefix = ''): string {
  codes.length = 0;
  for (let i = 0; i < prefix.length; i++) codes.push(prefix.charCodeAt(i));
  for (let i = 0; i < length; i++) codes.push(alphabet.charCodeAt(Math.floor(rand() * alphabet.length)));
  return String.fromCharCode.apply(null, codes);
}

/** `prefix_` + 16 base-36 characters drawn from `rand`. */
export function drawnId(prefix: string, rand: () => number): string {
  return randomString(rand, 16, ID_ALPHABET, `${prefix}_`);
}

/** `prefix_` + 16 base-36 characters, derived from (seed, label). */
export function seededId(prefix: string, seed: number, label: string): string {
  return drawnId(prefix, rngFor(seed, label));
}

/** `ak_` + 32 base-62 characters, derived from (seed, label). */
export function seededKey(seed: number, label: string): string {
  return randomString(rngFor(seed, label), 32, KEY_ALPHABET, 'ak_');
}
