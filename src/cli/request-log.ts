/**
 * The CLI's request log: one line per answered request on the terminal (method, path, status, ms, scenario, key),
 * or one JSON object a line with `--log json`. Keys are masked: the log never holds a whole key.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { maskKeys } from '../core/mask.js';

interface LogLine {
  time: string;
  method: string;
  path: string;
  status: number;
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
  // Every text field masked: a key may come in any of them (the path, the key, an X-Sandbox-Scenario header).
  return {
    time: now.toISOString(),
    method: maskKeys(req.method ?? ''),
    path: maskKeys(req.url ?? ''),
    status: res.statusCode,
    ms: Math.round(ms * 10) / 10,
    scenario: scenario === null ? null : maskKeys(scenario),
    key: key === null ? null : maskKeys(key),
  };
}

/** `12:00:01 GET /api/v1/ext/agents 200 1.2 ms  ak_AbCd…  [rate-limited]` */
function formatText(line: LogLine): string {
  const extra = [line.key, line.scenario && `[${line.scenario}]`].filter(Boolean).join('  ');
  return `${line.time.slice(11, 19)} ${line.method} ${line.path} ${line.status} ${line.ms} ms${extra ? `  ${extra}` : ''}\n`;
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
