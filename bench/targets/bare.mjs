/**
 * The baseline: a bare node:http server that serves the sandbox's own bytes (taken once from the library) for the
 * three benchmarked requests, behind a Bearer check. Prints `{"url": …}` on stdout when listening.
 */
import { createServer } from 'node:http';
import { sampleAnswers } from '../fixtures.mjs';

const { key, agents, task, created } = sampleAnswers();
const expected = `Bearer ${key}`;
const UNAUTHORIZED = '{"error":{"code":"missing_api_key","message":"Missing API key."}}';

function send(res, answer) {
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
}

const server = createServer((req, res) => {
  if (req.headers.authorization !== expected) {
    res.writeHead(401, { 'Content-Type': 'application/json; charset=utf-8' });
    return res.end(UNAUTHORIZED);
  }
  const url = req.url;
  if (req.method === 'GET' && url === '/api/v1/ext/agents') return send(res, agents);
  if (req.method === 'GET' && url.startsWith('/api/v1/ext/tasks/')) return send(res, task);
  if (req.method === 'POST' && url === '/api/v1/ext/tasks') {
    req.resume();
    return req.on('end', () => send(res, created));
  }
  res.writeHead(404).end();
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}/api/v1` })}\n`);
});
