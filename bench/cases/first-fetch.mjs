/**
 * An in-process start: imports one library entry of this build, creates a sandbox and asks `sandbox.fetch` for GET
 * /ext/agents; prints the status, then stays until killed (the bench reads its CPU time).
 * Usage: node bench/cases/first-fetch.mjs dist/fetch.js KEY  →  `200`.
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const [entry, key] = process.argv.slice(2);
const { createSandbox } = await import(pathToFileURL(resolve(entry)).href);
const sandbox = createSandbox();
const res = await sandbox.fetch('http://localhost/api/v1/ext/agents', { headers: { authorization: `Bearer ${key}` } });
await res.text();
process.stdout.write(`${res.status}\n`);
setInterval(() => {}, 60_000);
