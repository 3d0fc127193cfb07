/**
 * The cold-start reference: the least a node:http server with a Bearer check needs to answer 200 (a static body,
 * no library loaded). Prints its API URL when listening, like `agent-work-sandbox --quiet`.
 */
import { createServer } from 'node:http';

const expected = `Bearer ${process.argv[2]}`;
const server = createServer((req, res) => {
  if (req.headers.authorization !== expected) return res.writeHead(401).end();
  res
    .writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': '47' })
    .end('{"data":[],"has_more":false,"next_cursor":null}');
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${server.address().port}/api/v1\n`));
