/** The CLI server as a child process (`node dist/cli.js`), built first when `dist/` is missing. */
import { spawn, type ChildProcess } from 'node:child_process';
import { request, type Agent } from 'node:http';
import { CLI, ensureBuilt, ROOT } from '../support/built.js';
import { checkControlAnswer } from '../support/control-contract.js';

const CONTRACT_OFF = process.env.SANDBOX_CONTRACT === '0';

export { ROOT };

export interface CliServer {
  proc: ChildProcess;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  port: number;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/** Starts `node dist/cli.js --port 0 --quiet …args` and waits for the base URL it prints. */
export async function startCli(args: string[] = [], { quiet = true } = {}): Promise<CliServer> {
  ensureBuilt();
  const proc = spawn(process.execPath, [CLI, '--port', '0', ...(quiet ? ['--quiet'] : []), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout.on('data', (c) => (out += c));
  proc.stderr.on('data', (c) => (err += c));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the CLI did not start: ${err}`)), 15_000);
    const check = () => {
      const m = /(http:\/\/[^\s/]+)\/api\/v1$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proc.stdout.on('data', check);
    void exited.then((code) => reject(new Error(`the CLI exited with ${code}: ${err}`)));
  });
  return { proc, origin, port: Number(new URL(origin).port), stdout: () => out, stderr: () => err, exited };
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** One request with node:http (so that an Agent with many sockets makes requests truly concurrent). */
export function httpCall(
  origin: string,
  method: string,
  path: string,
  options: { agent?: Agent; headers?: Record<string, string>; body?: unknown } = {},
): Promise<HttpAnswer> {
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body);
  const headers: Record<string, string> = { ...options.headers };
  if (body !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { method, headers, agent: options.agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        let json: unknown;
        try {
          json = text === '' ? undefined : JSON.parse(text);
        } catch {
          json = undefined;
        }
        const answer = { status: res.statusCode!, headers: res.headers, text, json };
        try {
          checkControl(method, path, answer);
        } catch (error) {
          return reject(error instanceof Error ? error : new Error(String(error)));
        }
        resolve(answer);
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A control answer is checked against the control API's document, as the suite's fetch checks it. */
function checkControl(method: string, path: string, answer: HttpAnswer): void {
  const pathname = new URL(path, 'http://x').pathname;
  if (CONTRACT_OFF || !(pathname === '/__sandbox' || pathname.startsWith('/__sandbox/'))) return;
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  checkControlAnswer(method.toUpperCase(), pathname, { status: answer.status, headers, text: answer.text });
}

/** The key with this label on this account, read through the control API. */
export async function cliKey(origin: string, accountId = 'acc_demo', label = 'admin'): Promise<string> {
  const res = await httpCall(origin, 'GET', '/__sandbox/keys');
  const found = (res.json.data as { key: string; account_id: string; label: string }[]).find(
    (k) => k.account_id === accountId && k.label === label,
  );
  if (!found) throw new Error(`no key ${label} on ${accountId}`);
  return found.key;
}
