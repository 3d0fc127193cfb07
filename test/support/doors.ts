/**
 * The two doors onto one sandbox, as tests use them: in-process through msw's setupServer, and over a real socket
 * through `sandbox.listen()` on 127.0.0.1, port 0. Both give the same `call` function, so one table runs on both.
 */
import { setupServer } from 'msw/node';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/index.js';
import { unhandledOption } from '../../src/testing.js';

interface CallOptions {
  /** Sent as `Authorization: Bearer <key>` unless `headers.Authorization` is given. */
  key?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body (undefined when it is not JSON). */
  json: any;
}

export type Call = (method: string, path: string, options?: CallOptions) => Promise<Answer>;

export interface Door {
  name: 'in-process' | 'socket' | 'fetch';
  sandbox: Sandbox;
  /** The API's base URL on this door, e.g. `http://127.0.0.1:PORT/api/v1`. */
  baseUrl: string;
  call: Call;
  close(): Promise<void>;
}

/** The fixture key with this label on this account (default fixtures: `admin`, `read:agents`, …). */
export function keyOf(sandbox: Pick<Sandbox, 'keys'>, label = 'admin', accountId = 'acc_demo'): string {
  const found = sandbox.keys.list(accountId).find((k) => k.label === label && !k.revoked);
  if (!found) throw new Error(`no key '${label}' on ${accountId}`);
  return found.key;
}

/**
 * Every answer of every door is checked against the OpenAPI document (see contract.ts; `SANDBOX_CONTRACT=0` turns it off),
 * except on doors with handlers of the user's own (endpoints the document does not describe).
 */
const CONTRACT = process.env.SANDBOX_CONTRACT !== '0';

/** A `call` function on a base URL (real `fetch`). */
export function makeCall(baseUrl: string, options: SandboxOptions = {}, fetcher: typeof fetch = fetch): Call {
  const call = plainCall(baseUrl, fetcher);
  if (!CONTRACT || options.handlers) return call;
  return async (method, path, options) => {
    const answer = await call(method, path, options);
    (await import('./contract.js')).checkAnswer(method, path, answer);
    return answer;
  };
}

function plainCall(baseUrl: string, fetcher: typeof fetch): Call {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.key !== undefined && headers.Authorization === undefined)
      headers.Authorization = `Bearer ${options.key}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const res = await fetcher(`${baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  };
}

export const IN_PROCESS_BASE = 'https://agent-work.test/api/v1';

/** The sandbox's msw handlers under setupServer. One at a time per test file (msw patches globals). */
export function inProcess(options: SandboxOptions = {}): Door {
  const sandbox = createSandbox(options);
  const server = setupServer(...sandbox.handlers);
  server.listen(unhandledOption('error')); // onUnhandledRequest on msw 2, onUnhandledFrame on msw 3
  return {
    name: 'in-process',
    sandbox,
    baseUrl: IN_PROCESS_BASE,
    call: makeCall(IN_PROCESS_BASE, options),
    close: () => {
      server.close();
      return Promise.resolve();
    },
  };
}

/** The sandbox's node server on 127.0.0.1, port 0. */
export async function overSocket(options: SandboxOptions = {}): Promise<Door> {
  const sandbox = createSandbox(options);
  const running = await sandbox.listen({ port: 0 });
  const baseUrl = `${running.url}${sandbox.basePath}`;
  return { name: 'socket', sandbox, baseUrl, call: makeCall(baseUrl, options), close: () => running.close() };
}

/** `sandbox.fetch`: the core answering a standard fetch, no msw interception. */
export function viaFetch(options: SandboxOptions = {}): Door {
  const sandbox = createSandbox(options);
  return {
    name: 'fetch',
    sandbox,
    baseUrl: IN_PROCESS_BASE,
    call: makeCall(IN_PROCESS_BASE, options, sandbox.fetch),
    close: async () => {},
  };
}

export const DOORS = [
  ['in-process', (o?: SandboxOptions) => Promise.resolve(inProcess(o))],
  ['socket', overSocket],
  ['fetch', (o?: SandboxOptions) => Promise.resolve(viaFetch(o))],
] as const;
