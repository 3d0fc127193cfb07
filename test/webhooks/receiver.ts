import { createServer, type Server } from 'node:http';

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A webhook receiver on 127.0.0.1 (port 0) that records requests and answers the n-th one with statuses[n-1] (then the last). */
export async function startReceiver(statuses: number[] = [204]) {
  const received: Received[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.statusCode = statuses[Math.min(received.length - 1, statuses.length - 1)]!;
      res.end();
      for (const w of waiters.filter((w) => received.length >= w.n)) w.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** Resolves once n requests have arrived. */
    count: (n: number) =>
      received.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
