/**
 * Closing the server after API answers: the API door counts an answer as done once written (no `close` listener a
 * request), so a keep-alive connection whose answers are all written is idle and `close()` ends it at once, while
 * answers still to come (pipelined behind another) are waited for.
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { keyOf } from '../support/doors.js';

/** Sends raw bytes on a socket of its own; resolves with everything read until the server closes it. */
function rawClient(port: number): { socket: Socket; send: (text: string) => void; closed: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => (text += d));
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(text)));
  return { socket, send: (t) => socket.write(t), closed };
}

const get = (path: string, key: string) =>
  `GET /api/v1${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\n\r\n`;

describe('closing the server after API answers', () => {
  it('ends an idle keep-alive connection at once once its API answers are written', async () => {
    const sandbox = createSandbox({ clock: 'manual' });
    const server = await sandbox.listen({ port: 0 });
    const client = rawClient(server.port);
    client.send(get('/ext/agents', keyOf(sandbox)));
    await expect.poll(() => sandbox.requests.length).toBe(1);
    // The answer has been written: the connection is idle, and closing does not wait for the 10-second grace.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const t0 = Date.now();
    await server.close();
    const text = await client.closed;
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });

  it('writes every pipelined answer before it closes the connection', async () => {
    const sandbox = createSandbox({ clock: 'manual' });
    const server = await sandbox.listen({ port: 0 });
    const key = keyOf(sandbox);
    const client = rawClient(server.port);
    // Three requests in one write: node answers them in order, the later ones queued behind the first.
    client.send(get('/ext/agents', key) + get('/ext/agents?limit=1', key) + get('/ext/usage', key));
    // All three handled by the core; the last two answers may still wait behind the first when closing begins.
    await expect.poll(() => sandbox.requests.length).toBe(3);
    const closing = server.close();
    const text = await client.closed;
    await closing;
    expect(text.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(3);
    expect(sandbox.requests.map((r) => r.status)).toEqual([200, 200, 200]);
  });
});
