/**
 * A webhook receiver's answer is read up to a bound (64 KiB), then the stream is dropped: a receiver that streams
 * without end costs the sandbox a bounded amount of memory, and the start of its answer is still kept.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESPONSE_READ_BYTES, send } from '../../src/webhooks/send.js';

let server: Server;
let url: string;
let written = 0;
let closed: Promise<void>;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    if (req.url === '/small') return void res.end('ok: received');
    written = 0;
    res.writeHead(200, { 'content-type': 'text/plain' });
    const chunk = Buffer.alloc(16 * 1024, 'a');
    closed = new Promise((resolve) => res.on('close', () => resolve()));
    // Writes for as long as the client reads, up to 400 MB: a client that reads everything takes all of it.
    const pump = () => {
      while (!res.destroyed && written < 400 * 1024 * 1024) {
        written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const request = (target: string) => ({ url: target, headers: {}, body: '{}', event: {} as never });

describe('webhook answers are read up to a bound', () => {
  it('an endless answer: the first 500 characters are kept, the stream is dropped after the bound', async () => {
    const outcome = await send({ url: `${url}/stream` }, request(`${url}/stream`), 10_000);
    expect(outcome.status).toBe(200);
    expect(outcome.response).toBe('a'.repeat(500));
    await closed;
    // What was sent before the drop: the bound plus what sat in the socket buffers, far from the whole stream.
    expect(written).toBeLessThan(RESPONSE_READ_BYTES + 16 * 1024 * 1024);
  });

  it('a short answer is kept whole (a careful receiver)', async () => {
    const outcome = await send({ url: `${url}/small` }, request(`${url}/small`), 10_000);
    expect(outcome).toMatchObject({ status: 200, error: null, response: 'ok: received' });
  });
});
