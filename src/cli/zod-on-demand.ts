/**
 * `zod` as the CLI's build resolves it (tsup.config.ts, scripts/esbuild-zod-on-demand.ts): the real `z`, required on
 * first use. Every schema is built on first use (src/model/lazy.ts), so a start that validates nothing (no fixture file, no
 * --state, no --webhook) answers its first request without loading zod; the first POST, restore or control request
 * loads it then (synchronously: its CommonJS build).
 */
import { createRequire } from 'node:module';
import type * as Zod from 'zod';

const load = createRequire(import.meta.url);
let real: typeof Zod.z | undefined;

export const z: typeof Zod.z = new Proxy({} as typeof Zod.z, {
  get: (_target, key) => Reflect.get((real ??= (load('zod') as typeof Zod).z), key) as unknown,
});
