/**
 * The ceiling of the sandbox's own node door: `sandbox.listen()` as the CLI serves it (its door, body reading, headers
 * written with one writeHead), with the request core replaced by the three sample answers the bare baseline serves
 * (and its 401). What this server costs over node:http is the door's; what the sandbox costs over this is the core's
 * work (key, rate, task, books, journal, audit, trace) and the garbage it leaves. `npm run bench -- --ceiling`.
 *
 * With a number N as its argument (`npm run bench -- --spin N`), every answer first spins the CPU for N µs in place of
 * the core: a stand-in core that costs exactly N µs and leaves no garbage. Its ratio to node:http is the most a core
 * of that cost could reach on this machine, so a goal's ratio translates into a budget in µs for the core.
 * Prints `{"url": …}` on stdout when listening.
 */
import { createSandbox } from '../../dist/index.js';
import { fixedCore, sampleAnswers } from '../fixtures.mjs';

const spinMs = Number(process.argv[2] ?? 0) / 1000;
const fixed = fixedCore(sampleAnswers());

const sandbox = createSandbox();
// The core's place in the door, answered from the samples: the same routes and work as bench/targets/bare.mjs.
sandbox.handle =
  spinMs > 0
    ? (req) => {
        const until = performance.now() + spinMs;
        while (performance.now() < until);
        return fixed(req);
      }
    : fixed;
const server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ url: `${server.url}/api/v1` })}\n`);
