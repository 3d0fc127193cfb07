#!/usr/bin/env node
/**
 * The long fuzz run: the same properties as test/server/fuzz.test.ts, with more cases and a fresh seed.
 *
 *   node scripts/fuzz-long.mjs [COUNT=100000] [SOCKET_COUNT=COUNT/10]
 *   FUZZ_SEED=123 node scripts/fuzz-long.mjs 50000     # replay a seed
 *
 * The seed is printed first; a failure prints the counterexample and the seed and path to replay it.
 */
import { spawnSync } from 'node:child_process';

const count = Number(process.argv[2] ?? 100_000);
const socketCount = Number(process.argv[3] ?? Math.ceil(count / 10));
if (!Number.isSafeInteger(count) || count < 1 || !Number.isSafeInteger(socketCount) || socketCount < 0) {
  console.error('usage: node scripts/fuzz-long.mjs [COUNT] [SOCKET_COUNT]');
  process.exit(2);
}
const seed = process.env.FUZZ_SEED || String((Date.now() ^ Math.floor(Math.random() * 2 ** 31)) | 0);
console.log(
  `fuzz-long: ${count} in-process cases, ${socketCount} over the socket, seed ${seed} (replay with FUZZ_SEED=${seed})`,
);
const result = spawnSync('npx', ['vitest', 'run', 'test/server/fuzz.test.ts'], {
  stdio: 'inherit',
  env: { ...process.env, FUZZ_SEED: seed, FUZZ_RUNS: String(count), FUZZ_SOCKET_RUNS: String(socketCount) },
});
process.exit(result.status ?? 1);
