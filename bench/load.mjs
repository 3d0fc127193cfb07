/**
 * The load generator, run as its own process: autocannon for a fixed time against one URL, with every response's
 * latency kept (autocannon's own histogram has 1 ms resolution, too coarse for sub-millisecond answers).
 * Usage: node bench/load.mjs '<json options>'  →  one JSON line on stdout.
 * Options: { url, method, headers, body, connections, seconds }.
 */
import autocannon from 'autocannon';

const options = JSON.parse(process.argv[2]);
const latencies = [];
const statuses = {};

const instance = autocannon({
  url: options.url,
  method: options.method ?? 'GET',
  headers: options.headers ?? {},
  body: options.body,
  connections: options.connections,
  duration: options.seconds,
  pipelining: 1,
});
instance.on('response', (_client, statusCode, _bytes, responseTime) => {
  latencies.push(responseTime);
  statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
});
instance.on('done', (result) => {
  latencies.sort((a, b) => a - b);
  const at = (p) =>
    latencies.length === 0 ? NaN : latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
  const ok = Object.entries(statuses)
    .filter(([s]) => s.startsWith('2'))
    .reduce((n, [, c]) => n + c, 0);
  process.stdout.write(
    `${JSON.stringify({
      requests: latencies.length,
      rps: latencies.length / options.seconds,
      p50: at(0.5),
      p99: at(0.99),
      ok,
      statuses,
      errors: result.errors,
      timeouts: result.timeouts,
    })}\n`,
  );
});
