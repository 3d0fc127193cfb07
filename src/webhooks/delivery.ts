/** One delivery attempt: sign the message, send it (unless the url is refused), record the outcome, decide what next. */
import { iso } from '../core/iso.js';
import type { Delivery, Endpoint } from './journal.js';
import { retryDelay, type DeliverySettings } from './retry.js';
import { send, type SendOutcome, type WebhookRequest } from './send.js';
import { importKey, OUT_OF_TOLERANCE_SECONDS, sign, webhookHeaders, wrongKeyBytes } from './signature.js';
import type { HandlerFault } from '../core/engine.js';

/** What an attempt needs of the dispatcher. */
export interface AttemptContext {
  seed: number;
  settings: DeliverySettings;
  /** Why the url may not be sent to now, or undefined. */
  refused: (url: string) => string | undefined;
  /** False once the dispatcher was reset or loaded since the attempt began (its outcome is dropped). */
  current: () => boolean;
  /** The attempt failed and may be made again at `at`. */
  retry: (d: Delivery, at: number) => void;
  /** The receiver answered 2xx to a message it must reject. */
  accepted: (d: Delivery, fault: HandlerFault) => void;
}

const notSent = (error: string): SendOutcome => ({ status: null, latencyMs: 0, error, response: null });

/** Makes one attempt of `d` at sandbox time `at`; true when the delivery ended with it (succeeded or failed). */
export async function attempt(d: Delivery, endpoint: Endpoint, at: number, ctx: AttemptContext): Promise<boolean> {
  let request: WebhookRequest | undefined;
  let outcome: SendOutcome;
  try {
    request = await signedRequest(endpoint, d);
    // Checked again at each attempt: an endpoint may have been added before the sandbox was served.
    const refused = endpoint.url === null ? undefined : ctx.refused(endpoint.url);
    outcome = refused ? notSent(`Not sent: ${refused}`) : await send(endpoint, request, ctx.settings.timeoutMs);
  } catch (error) {
    outcome = notSent(`Could not sign the message: ${(error as Error).message}`);
  }
  if (!ctx.current()) return false;
  const headers = { ...request?.headers };
  d.attempts.push({ at: iso(at), ...outcome, duplicate: false, headers });
  if (d.status !== 'pending') return false; // the endpoint was removed meanwhile
  const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  if (ok) {
    if (d.badSignature) ctx.accepted(d, 'bad-signature');
    if (d.staleTimestamp) ctx.accepted(d, 'stale-timestamp');
    d.status = 'succeeded';
    if (d.duplicates && request) {
      const again = await send(endpoint, request, ctx.settings.timeoutMs);
      if (ctx.current()) d.attempts.push({ at: iso(at), ...again, duplicate: true, headers });
    }
  } else if (d.attempts.filter((a) => !a.duplicate).length >= ctx.settings.maxAttempts) {
    d.status = 'failed';
  } else {
    ctx.retry(d, at + retryDelay(ctx.seed, d.id, d.attempts.length, ctx.settings.retryBaseMs));
    return false;
  }
  return true;
}

/**
 * The signed request: `webhook-timestamp` is real time, so receivers' tolerance checks pass under a manual clock
 * (`webhook-stale-timestamp` moves it out of the tolerance on purpose).
 */
async function signedRequest(endpoint: Endpoint, d: Delivery): Promise<WebhookRequest> {
  const key = d.badSignature
    ? (endpoint.wrongKey ??= importKey(wrongKeyBytes(endpoint.bytes)))
    : (endpoint.key ??= importKey(endpoint.bytes));
  const timestamp = Math.floor(Date.now() / 1000) - (d.staleTimestamp ? OUT_OF_TOLERANCE_SECONDS : 0);
  const signature = await sign(await key, d.event.id, timestamp, d.body);
  return {
    url: endpoint.url,
    headers: webhookHeaders(d.event.id, timestamp, signature),
    body: d.body,
    event: d.event,
  };
}
