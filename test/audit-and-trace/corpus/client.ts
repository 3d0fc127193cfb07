/**
 * What a corpus case is: a small client run against a fresh sandbox, and the audit findings it must leave (the rules,
 * nothing more, nothing less). `kind` says why it is there: a naive mistake, a careful client that follows a rule's fix
 * text literally, or an edge case.
 */
import type { AuditRuleName, Sandbox } from '../../../src/index.js';
import type { Door } from '../../support/doors.js';
import { ADMIN } from '../../tasks-and-billing/support.js';

export interface Client {
  sandbox: Sandbox;
  door: Door;
  /** One request as the client sends it; the answer, or the error fetch threw (an abort, a failed connection). */
  send(method: string, path: string, options?: SendOptions): Promise<Sent>;
  /** Moves the sandbox clock (the client's waiting). */
  wait(ms: number): void;
}

export interface SendOptions {
  /** Default: the admin key of acc_pro, in the Authorization header; null: no key. */
  key?: string | null;
  /** An object is sent as JSON with Content-Type: application/json; a string as is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Gives up (aborts) after this many real milliseconds: a client's timeout. */
  timeoutMs?: number;
  /** Gives up as soon as the sandbox has the request (recorded in its journal), before the answer comes. */
  abortOnceReceived?: boolean;
}

export interface Sent {
  status: number;
  headers: Headers;
  json: any;
  /** What fetch threw instead of answering. */
  error?: Error;
}

export interface CorpusCase {
  name: string;
  kind: 'naive' | 'careful' | 'edge';
  /** The rules the audit must report, and no other. */
  expect: AuditRuleName[];
  /** The door the client goes through (default `fetch`: sandbox.fetch). */
  door?: Door['name'];
  run(client: Client): Promise<void>;
}

export const KEY = ADMIN.pro;
export const TASK = { agent_id: 'agt_bravo', description: 'Summarise the quarterly report for the board.' };
export const CHEAP_TASK = { agent_id: 'agt_fixed', description: 'Say hi.' };

/** The client over a door: sandbox.fetch for the `fetch` door, the platform's fetch for msw's and the socket. */
export function clientOf(door: Door): Client {
  const fetcher = door.name === 'fetch' ? door.sandbox.fetch : fetch;
  return {
    sandbox: door.sandbox,
    door,
    wait: (ms) => void door.sandbox.clock.advance(ms),
    async send(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      const key = options.key === undefined ? KEY : options.key;
      if (key !== null && headers.Authorization === undefined) headers.Authorization = `Bearer ${key}`;
      let body: string | undefined;
      if (options.body !== undefined) {
        body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
        if (typeof options.body !== 'string') headers['Content-Type'] ??= 'application/json';
      }
      const controller = new AbortController();
      const timer =
        options.timeoutMs === undefined ? undefined : setTimeout(() => controller.abort(), options.timeoutMs);
      if (options.abortOnceReceived) void abortOnceReceived(door.sandbox, controller);
      try {
        const res = await fetcher(`${door.baseUrl}${path}`, { method, headers, body, signal: controller.signal });
        const text = await res.text();
        return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
      } catch (error) {
        return { status: 0, headers: new Headers(), json: undefined, error: error as Error };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** Aborts once the journal grows: the request reached the sandbox and is being answered (slowly). */
async function abortOnceReceived(sandbox: Sandbox, controller: AbortController): Promise<void> {
  const before = sandbox.findRequests().length;
  for (let i = 0; i < 10_000 && sandbox.findRequests().length === before; i++)
    await new Promise((resolve) => setImmediate(resolve));
  controller.abort();
}

/** The USD a task request was estimated at and held (from its trace), by the request id its answer names. */
export function estimateOf(client: Client, answer: Sent): number {
  const id = answer.headers.get('x-sandbox-request-id') ?? '';
  const step = client.sandbox.explain(id)?.find((s) => s.step === 'balance');
  return Number(step?.figures?.estimated_cost_usd);
}
