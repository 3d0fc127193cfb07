/** The loader hook of load-trace.mjs (it runs on the loader's thread): each resolved module, before it loads. */
import { writeSync } from 'node:fs';

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  writeSync(2, `LOAD ${resolved.url}\n`);
  return resolved;
}
