/**
 * `node --import ./load-trace.mjs dist/cli.js …`: writes to stderr, synchronously and in order, `LOAD <url>` for every
 * module the process resolves (ES modules, through a loader hook) or requires (CommonJS), and `FIRST-REQUEST` when the
 * HTTP server receives its first request: what is listed before it was loaded before the first answer. Just before
 * that line, `BUILTIN <name>` for each of node's own modules loaded by then (`process.moduleLoadList`).
 */
import { writeSync } from 'node:fs';
import http from 'node:http';
import Module, { register } from 'node:module';

register('./load-trace-hooks.mjs', import.meta.url);

const load = Module._load;
Module._load = function (request, parent, isMain) {
  writeSync(2, `LOAD cjs:${request} from ${parent?.filename ?? '(none)'}\n`);
  return load.call(this, request, parent, isMain);
};

const emit = http.Server.prototype.emit;
let first = true;
http.Server.prototype.emit = function (event, ...args) {
  if (event === 'request' && first) {
    first = false;
    const builtins = process.moduleLoadList.filter((m) => m.startsWith('NativeModule '));
    writeSync(2, builtins.map((m) => `BUILTIN ${m.slice('NativeModule '.length)}\n`).join(''));
    writeSync(2, 'FIRST-REQUEST\n');
  }
  return emit.call(this, event, ...args);
};
