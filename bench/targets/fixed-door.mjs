/**
 * The ceiling of the sandbox's own node door: `sandbox.listen()` as the CLI serves it (its door, body reading, headers
 * written with one writeHead), with the request core replaced by the three sample answers the bare baseline serves
 * (and its 401). What this server costs over node:http is the door's; what the sandbox costs over this is the core's
 * work (key, rate, task, books, journal, audit, trace) and the garbage it leaves. `npm run bench -- --ceiling`.
 * Prints `{"url": …}` on stdout when listening.
 */
import { createSandbox } from '../../dist/index.js';
import { sampleAnswers } from '../fixtures.mjs';

const { key, agents, task, created } = sampleAnswers();
const expected = `Bearer ${key}`;
const UNAUTHORIZED = {
  status: 401,
  headers: { 'Content-Type': 'application/json; charset=utf-8' },
  body: '{"error":{"code":"missing_api_key","message":"Missing API key."}}',
};
const NOT_FOUND = { status: 404, headers: {}, body: '' };

const sandbox = createSandbox();
// The core's place in the door, answered from the samples: the same routes as bench/targets/bare.mjs.
sandbox.handle = (req) => {
  if (req.header('authorization') !== expected) return UNAUTHORIZED;
  if (req.method === 'GET' && req.path === '/ext/agents') return agents;
  if (req.method === 'GET' && req.path.startsWith('/ext/tasks/')) return task;
  if (req.method === 'POST' && req.path === '/ext/tasks') {
    JSON.parse(req.body);
    return created;
  }
  return NOT_FOUND;
};
const server = await sandbox.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ url: `${server.url}/api/v1` })}\n`);
