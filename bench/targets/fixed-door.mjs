/**
 * The ceiling of the sandbox's own node door: `sandbox.listen()` as the CLI serves it (its door, body reading, headers
 * written with one writeHead), with the request core replaced by the three sample answers the bare baseline serves
 * (and its 401). What this server costs over node:http is the door's; what the sandbox costs over this is the core's
 * work (key, rate, task, books, journal, audit, trace) and the garbage it leaves. `npm run bench -- --ceiling`.
 * Prints `{"url": …}` on stdout when listening.
 */
import { createSandbox } from '../../dist/index.js';
import { fixedCore, sampleAnswers } from '../fixtures.mjs';

const sandbox = createSandbox();
// The core's place in the door, answered from the samples: the same routes and work as bench/targets/bare.mjs.
sandbox.handle = fixedCore(sampleAnswers());
const server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ url: `${server.url}/api/v1` })}\n`);
