/** One attempt of a webhook message: a POST through `fetch`, or a call of the endpoint's callback. */
import { WebhookTimeoutError } from '../errors.js';
import type { WebhookEvent } from './events.js';

/** What a callback endpoint receives: the request as it would travel (headers, raw body) and the parsed event. */
export interface WebhookRequest {
  url: string | null;
  headers: Record<string, string>;
  body: string;
  event: WebhookEvent;
}

/**
 * An in-process receiver. Returning nothing (or `true`) answers 200; a number answers that status; `false` answers
 * 500; an object with `status` (such as a `Response`) answers its status; throwing counts as a failed attempt.
 */
export type WebhookCallback = (request: WebhookRequest) => unknown;

export interface SendOutcome {
  /** HTTP status, or null when no answer came (network error, timeout, callback threw). */
  status: number | null;
  /** Real milliseconds the attempt took. */
  latencyMs: number;
  error: string | null;
  /** The start of the receiver's answer (up to 500 characters), for debugging. */
  response: string | null;
}

const now = () => performance.now();

/** Characters of a receiver's answer kept; bytes of it read at most (then the stream is dropped). */
const RESPONSE_CHARS = 500;
export const RESPONSE_READ_BYTES = 64 * 1024;

/**
 * The start of an answer's body: read up to `RESPONSE_READ_BYTES`, then the rest is cancelled, so a receiver that
 * streams without end costs a bounded amount of memory and time.
 */
async function readStart(res: Response): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < RESPONSE_READ_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(Math.min(size, RESPONSE_READ_BYTES));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk.subarray(0, bytes.length - at), at);
    at += Math.min(chunk.byteLength, bytes.length - at);
  }
  return new TextDecoder().decode(bytes);
}

function statusOf(answer: unknown): number {
  if (answer === undefined || answer === null || answer === true) return 200;
  if (answer === false) return 500;
  if (typeof answer === 'number') return answer;
  if (typeof answer === 'object' && typeof (answer as { status?: unknown }).status === 'number')
    return (answer as { status: number }).status;
  return 200;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WebhookTimeoutError()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function send(
  target: { url: string | null; callback?: WebhookCallback },
  request: WebhookRequest,
  timeoutMs: number,
): Promise<SendOutcome> {
  const started = now();
  const latency = () => Math.round((now() - started) * 1000) / 1000;
  try {
    if (target.callback) {
      const status = statusOf(await withTimeout(Promise.resolve(target.callback(request)), timeoutMs));
      return { status, latencyMs: latency(), error: null, response: null };
    }
    if (target.url === null) throw new Error('The endpoint has neither a url nor a callback.');
    const res = await fetch(target.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await readStart(res).catch(() => '');
    return { status: res.status, latencyMs: latency(), error: null, response: text.slice(0, RESPONSE_CHARS) };
  } catch (error) {
    const e = error instanceof Error ? error : undefined;
    const cause = (e?.cause as { message?: string } | undefined)?.message;
    const message =
      e instanceof WebhookTimeoutError || e?.name === 'TimeoutError'
        ? `No answer within ${String(timeoutMs)} ms.`
        : `${e ? e.message : String(error)}${cause ? ` (${cause})` : ''}`;
    return { status: null, latencyMs: latency(), error: message, response: null };
  }
}
