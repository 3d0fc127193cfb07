/**
 * `zod` as the CLI's build resolves it (tsup.config.ts, scripts/esbuild-zod-on-demand.ts): the real `z`, required on
 * first use. Every schema is built on first use (src/model/lazy.ts), so a start that validates nothing (no fixture file, no
 * --state, no --webhook) answers its first request without loading zod; the first POST, restore or control request
 * loads it then (synchronously: its CommonJS build).
 */
import { createRequire } from 'node:module';
import type * as Zod from 'zod';
import { lazy } from '../model/lazy.js';

const load = createRequire(import.meta.url);
const real = lazy(() => (load('zod') as typeof Zod).z);

// Not `lazyObject`: that binds functions, and zod's classes carry static members a bound copy would lose.
export const z: typeof Zod.z = new Proxy({} as typeof Zod.z, {
  get: (_target, key) => Reflect.get(real(), key) as unknown,
});
