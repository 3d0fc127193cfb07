/** A raw HTTP/1.1 exchange over `node:net`, for requests `fetch` refuses to send (control characters, odd methods). */
import { connect } from 'node:net';

export interface RawAnswer {
  /** The socket closed (or was reset) before any answer. */
  closed: boolean;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `bytes` on a new connection and reads until the server closes it (requests carry `Connection: close`). */
export function rawExchange(port: number, bytes: Buffer | string, timeoutMs = 10_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parseAnswer(Buffer.concat(chunks)));
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', done);
    socket.write(bytes);
  });
}

export function parseAnswer(buf: Buffer): RawAnswer {
  const text = buf.toString('utf8');
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return { closed: true, status: 0, headers: {}, body: '' };
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return { closed: false, status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(end + 4) };
}

/** A request in raw bytes: request line, headers as given (names and values unchecked), then the body. */
export function rawRequest(method: string, target: string, headerPairs: [string, string][], body: string): Buffer {
  const head = [
    `${method} ${target} HTTP/1.1`,
    'Host: 127.0.0.1',
    ...headerPairs.map(([n, v]) => `${n}: ${v}`),
    'Connection: close',
  ];
  if (body !== '' || method === 'POST') head.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'utf8'), Buffer.from(body, 'utf8')]);
}
