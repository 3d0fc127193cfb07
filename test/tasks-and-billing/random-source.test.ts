/**
 * Where the key index's secrets come from (docs/decisions/key-lookup.md): `globalThis.crypto` unless a door hands a
 * cheaper secure source (`useRandomSource`); the CLI hands the OS's random device (src/cli/random-device.ts).
 */
import { afterEach, expect, it } from 'vitest';
import { fillFromRandomDevice } from '../../src/cli/random-device.js';
import { KeyIndex, useRandomSource } from '../../src/model/key-index.js';
import { hash53 } from '../../src/model/random.js';
import type { ApiKey } from '../../src/model/types.js';

afterEach(() => useRandomSource(undefined));

const KEY: ApiKey = {
  id: 'key_t',
  key: 'ak_test',
  accountId: 'acc',
  scopes: [],
  revoked: false,
  label: 'x',
  createdAt: 0,
};
const bucketsOf = (index: KeyIndex) => [...(index as unknown as { buckets: Map<number, unknown> }).buckets.keys()];

it('a key index takes its secret from the source a door hands it, once per index', () => {
  let draws = 0;
  useRandomSource((into) => {
    draws += 1;
    into[0] = 0x5eed;
  });
  const index = new KeyIndex().set(KEY.key, KEY);
  expect(draws).toBe(1);
  expect(bucketsOf(index)).toEqual([hash53(KEY.key, 0x5eed)]);
  expect(index.get(KEY.key)).toBe(KEY);
});

it('without one, the secret comes from crypto: two indexes place the same key apart', () => {
  const placed = new Set(Array.from({ length: 4 }, () => bucketsOf(new KeyIndex().set(KEY.key, KEY))[0]));
  expect(placed.size).toBeGreaterThan(1);
});

it("the CLI's random device fills every byte, differently each time", () => {
  const a = new Uint32Array(8);
  const b = new Uint32Array(8);
  fillFromRandomDevice(a);
  fillFromRandomDevice(b);
  expect(a.some((v) => v !== 0)).toBe(true);
  expect([...a]).not.toEqual([...b]);
  useRandomSource(fillFromRandomDevice);
  const placed = new Set(Array.from({ length: 4 }, () => bucketsOf(new KeyIndex().set(KEY.key, KEY))[0]));
  expect(placed.size).toBeGreaterThan(1);
});
