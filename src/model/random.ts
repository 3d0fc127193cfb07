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

/** mulberry32: a small seeded generator of floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A generator for one labelled purpose under a sandbox seed. */
export function rngFor(seed: number, label: string): () => number {
  return prng(hash53(label, seed));
}

/** Integer in [min, max]. */
export function intBetween(rand: () => number, min: number, max: number): number {
  return min + Math.floor(rand() * (max - min + 1));
}

const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomString(rand: () => number, length: number, alphabet = ID_ALPHABET): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(rand() * alphabet.length)];
  return out;
}

/** `prefix_` + 16 base-36 characters, derived from (seed, label). */
export function seededId(prefix: string, seed: number, label: string): string {
  return `${prefix}_${randomString(rngFor(seed, label), 16)}`;
}

/** `ak_` + 32 base-62 characters, derived from (seed, label). */
export function seededKey(seed: number, label: string): string {
  return `ak_${randomString(rngFor(seed, label), 32, KEY_ALPHABET)}`;
}
