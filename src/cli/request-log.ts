/**
 * The CLI's request log: one line per request on the terminal (method, full path, status, ms, scenario, key), or
 * one JSON object a line with `--log json`. It says what the client saw: a reset connection is status 0 with
 * `network_error`, a client that went away before its answer is status 0 with `client_closed`, as in the journal.
 * Keys are masked: the log never holds a whole key.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { maskKeys } from '../core/mask.js';
import { networkErrors } from '../server/api-door.js';

interface LogLine {
  time: string;
  method: string;
  path: string;
  /** The status sent; 0 when nothing was sent. */
  status: number;
  /** Why nothing was sent: `network_error` (the scenario reset the connection) or `client_closed`; else null. */
  error: 'network_error' | 'client_closed' | null;
  ms: number;
  /** The scenario the request asked for: the `X-Sandbox-Scenario` header, or the one a magic key stands for. */
  scenario: string | null;
  /** The API key sent, masked (`ak_AbCd…`). */
  key: string | null;
}

const BEARER = /^Bearer\s+(\S+)/i;
const MAGIC = /^ak_magic_([a-z_]+)$/;

/** What is logged of one answered request. */
function logLine(req: IncomingMessage, res: ServerResponse, ms: number, now: Date): LogLine {
  const key = BEARER.exec(req.headers.authorization ?? '')?.[1] ?? null;
  const header = req.headers['x-sandbox-scenario'];
  const scenario =
    (Array.isArray(header) ? header.join(',') : header) || (key && MAGIC.exec(key)?.[1]?.replace(/_/g, '-')) || null;
  return {
    time: now.toISOString(),
    method: req.method ?? '',
    // express strips a router's mount path (`/__sandbox`) from `url`; `originalUrl` keeps the path the client sent.
    path: maskKeys((req as { originalUrl?: string }).originalUrl ?? req.url ?? ''),
    status: res.headersSent ? res.statusCode : 0,
    error: res.headersSent ? null : networkErrors.has(res) ? 'network_error' : 'client_closed',
    ms: Math.round(ms * 10) / 10,
    scenario,
    key: key === null ? null : maskKeys(key),
  };
}

/** `12:00:01 GET /api/v1/ext/agents 200 1.2 ms  ak_AbCd…  [rate-limited]` */
function formatText(line: LogLine): string {
  const extra = [line.key, line.scenario && `[${line.scenario}]`].filter(Boolean).join('  ');
  const status = line.error ? `${line.status} ${line.error}` : String(line.status);
  return `${line.time.slice(11, 19)} ${line.method} ${line.path} ${status} ${line.ms} ms${extra ? `  ${extra}` : ''}\n`;
}

/** Writes a line for every request the server answers (or whose client went away), after the answer. */
export function attachRequestLog(server: Server, format: 'text' | 'json', write: (text: string) => void): void {
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const start = performance.now();
    res.once('close', () => {
      const line = logLine(req, res, performance.now() - start, new Date());
      write(format === 'json' ? `${JSON.stringify(line)}\n` : formatText(line));
    });
  });
}
