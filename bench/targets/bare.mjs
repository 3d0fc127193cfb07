/**
 * The reference: a bare node:http server that serves the sandbox's own bytes (taken once from the library) for the
 * three benchmarked requests, behind a Bearer check (or another build's bytes: see below). A POST's body is read and
 * parsed as JSON before the 201: bare node:http parsing the JSON and answering 201 with the same bytes.
 * Prints `{"url": …}` on stdout when listening.
 */
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sampleAnswers, UNAUTHORIZED } from '../fixtures.mjs';

// `bare.mjs DIR`: the answers of the build in DIR (the bench's --baseline), to tell what its bytes cost from its code.
const other = process.argv[2] && (await import(pathToFileURL(resolve(process.argv[2], 'dist/index.js')).href));
const { key, agents, task, created } = sampleAnswers(other ? other.createSandbox : undefined);
const expected = `Bearer ${key}`;

// Bodies as Buffers with their Content-Length, headers written in one writeHead: the cheapest answer node:http allows.
const prepared = (answer) => {
  const body = Buffer.from(answer.body);
  return { status: answer.status, body, headers: { ...answer.headers, 'Content-Length': String(body.length) } };
};
const [agentsOut, taskOut, createdOut] = [agents, task, created].map(prepared);

function send(res, answer) {
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
}

const server = createServer((req, res) => {
  if (req.headers.authorization !== expected) {
    res.writeHead(UNAUTHORIZED.status, UNAUTHORIZED.headers);
    return res.end(UNAUTHORIZED.body);
  }
  const url = req.url;
  if (req.method === 'GET' && url === '/api/v1/ext/agents') return send(res, agentsOut);
  if (req.method === 'GET' && url.startsWith('/api/v1/ext/tasks/')) return send(res, taskOut);
  if (req.method === 'POST' && url === '/api/v1/ext/tasks') {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    return req.on('end', () => {
      try {
        JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      send(res, createdOut);
    });
  }
  res.writeHead(404).end();
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}/api/v1` })}\n`);
});
