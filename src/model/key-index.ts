import { hash53 } from './random.js';
import type { ApiKey } from './types.js';

/** Fills `into` with secure random values. */
export type RandomFill = (into: Uint32Array) => void;

let randomFill: RandomFill | undefined;

/**
 * A door with a cheaper source of secure random values than `globalThis.crypto` hands it here (the CLI: the OS's
 * random device, since the first use of `crypto` loads Node's web crypto, which delays the start); `undefined`: back to
 * `crypto`. Only where the secrets come from changes, not what they are for.
 */
export function useRandomSource(fill: RandomFill | undefined): void {
  randomFill = fill;
}

/** A per-index secret, so that where a key lands in the index cannot be predicted from outside. */
function randomSecret(): number {
  const one = new Uint32Array(1);
  if (randomFill) randomFill(one);
  else {
    const c = (globalThis as { crypto?: { getRandomValues?: (a: Uint32Array) => Uint32Array } }).crypto;
    if (!c?.getRandomValues) return (Math.random() * 2 ** 32) | 0;
    c.getRandomValues(one);
  }
  return (one[0] ?? 0) | 0;
}

/** Compares two strings in time that depends on their length only, not on where they first differ. */
export function sameString(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * API keys by their value, Map-like. Lookups go by a keyed hash of the value and end in a constant-time comparison,
 * so the time of a lookup does not tell how many leading characters of a guess were right
 * (docs/decisions/key-lookup.md). Runtime-neutral: no `node:` import.
 */
export class KeyIndex {
  private readonly secret = randomSecret();
  private readonly buckets = new Map<number, ApiKey[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(value: string): ApiKey | undefined {
    const bucket = this.buckets.get(hash53(value, this.secret));
    if (!bucket) return undefined;
    let found: ApiKey | undefined;
    for (const k of bucket) if (sameString(k.key, value)) found = k;
    return found;
  }

  has(value: string): boolean {
    return this.get(value) !== undefined;
  }

  set(value: string, key: ApiKey): this {
    const h = hash53(value, this.secret);
    const bucket = this.buckets.get(h) ?? [];
    const at = bucket.findIndex((k) => k.key === value);
    if (at === -1) {
      bucket.push(key);
      this.count += 1;
    } else bucket[at] = key;
    this.buckets.set(h, bucket);
    return this;
  }

  delete(value: string): boolean {
    const h = hash53(value, this.secret);
    const bucket = this.buckets.get(h);
    const at = bucket ? bucket.findIndex((k) => k.key === value) : -1;
    if (!bucket || at === -1) return false;
    bucket.splice(at, 1);
    if (bucket.length === 0) this.buckets.delete(h);
    this.count -= 1;
    return true;
  }

  *values(): IterableIterator<ApiKey> {
    for (const bucket of this.buckets.values()) yield* bucket;
  }
}
