/**
 * `sandbox.webhooks.deliver()`: one event sent to a handler the ways live traffic sends it (late, twice, after a
 * retry) and the ways an attacker would (wrong signature, old or future timestamp, changed body), with a verdict on
 * each answer. A handler that accepts a spoiled message is also reported to the integration audit.
 */
import type { HandlerFault } from '../core/engine.js';
import { SandboxError } from '../errors.js';
import { parseInput, webhookKitOptions, webhookUrl } from '../schemas.js';
import type { WebhookEvent } from './events.js';
import { signBody, wallSeconds, type SignedWebhook } from './kit-sign.js';
import { send, type SendOutcome, type WebhookCallback } from './send.js';
import { OUT_OF_TOLERANCE_SECONDS, secretBytes, wrongKeyBytes } from './signature.js';
import { judge, type DeliverAttempt, type DeliverVerdict, type WebhookTamper } from './kit-verdicts.js';

/** Where `deliver()` sends: a URL (POSTed with `fetch`), or an in-process handler taking a `Request`. */
export type DeliverTarget = string | ((request: Request) => Response | Promise<Response>);

/** The options of `sandbox.webhooks.deliver()`. */
export interface DeliverOptions {
  /** The `whsec_…` secret the handler verifies with; default: that of the event's account's first endpoint. */
  secret?: string;
  /** Copies of the message sent again after it was accepted (same `webhook-id`). Default 0. */
  duplicates?: number;
  /** Events sent before this one, as when later deliveries overtake an earlier one. */
  reorderWith?: WebhookEvent[];
  /** Answers to treat as failed whatever they are, so the message is sent again (same id, new signature). Default 0. */
  failFirst?: number;
  /** Spoiled copies to send after the genuine message; a handler must answer each with a non-2xx status. */
  tamper?: WebhookTamper | WebhookTamper[];
  /** Real milliseconds to wait for each answer. Default: the webhooks' `timeoutMs`. */
  timeoutMs?: number;
}

/** What `deliver()` returns: every attempt, a verdict per check, and whether all passed. */
export interface DeliverReport {
  eventId: string;
  /** The URL, or `in-process`. */
  target: string;
  attempts: DeliverAttempt[];
  verdicts: DeliverVerdict[];
  /** True when every verdict passed. */
  ok: boolean;
}

/** What `deliver()` needs of the sandbox. */
export interface DeliverContext {
  /** The secret of the event's account's first endpoint, if any. */
  endpointSecret: (event: WebhookEvent) => string | undefined;
  /** Why the url may not be sent to, or undefined. */
  refused: (url: string) => string | undefined;
  /** A handler accepted a spoiled message. */
  accepted: (fault: HandlerFault, event: WebhookEvent) => void;
  timeoutMs: number;
}

interface Plan {
  event: WebhookEvent;
  kind: DeliverAttempt['kind'];
  tamper: WebhookTamper | null;
  countedAsFailed: boolean;
}

const asList = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** What is sent, in order: the overtaking events, the event (with its failed tries), duplicates, spoiled copies. */
function plan(event: WebhookEvent, o: DeliverOptions): Plan[] {
  const one = (kind: Plan['kind'], tamper: WebhookTamper | null = null, failed = false, e = event): Plan => ({
    event: e,
    kind,
    tamper,
    countedAsFailed: failed,
  });
  const failFirst = o.failFirst ?? 0;
  return [
    ...(o.reorderWith ?? []).map((e) => one('reordered', null, false, e)),
    ...Array.from({ length: failFirst + 1 }, (_, i) => one(i === 0 ? 'delivery' : 'retry', null, i < failFirst)),
    ...Array.from({ length: o.duplicates ?? 0 }, () => one('duplicate')),
    ...[...new Set(asList(o.tamper))].map((t) => one('tampered', t)),
  ];
}

/** The message of one planned attempt, signed (or spoiled) now. */
async function message(p: Plan, bytes: Uint8Array<ArrayBuffer>): Promise<SignedWebhook> {
  const body = JSON.stringify(p.event);
  const now = wallSeconds();
  const shift =
    p.tamper === 'timestamp-stale'
      ? -OUT_OF_TOLERANCE_SECONDS
      : p.tamper === 'timestamp-future'
        ? OUT_OF_TOLERANCE_SECONDS
        : 0;
  const signed = await signBody(p.event.id, body, now + shift, p.tamper === 'signature' ? wrongKeyBytes(bytes) : bytes);
  // The body changed after signing, as a man in the middle would change it.
  if (p.tamper === 'body') signed.body = JSON.stringify({ ...p.event, created_at: '2000-01-01T00:00:00.000Z' });
  return signed;
}

export async function deliverEvent(
  target: DeliverTarget,
  event: WebhookEvent,
  given: DeliverOptions,
  ctx: DeliverContext,
): Promise<DeliverReport> {
  parseInput(webhookKitOptions().anEvent, event, 'the event');
  const options = parseInput(webhookKitOptions().deliver, given, 'the deliver options') as DeliverOptions;
  const secret = options.secret ?? ctx.endpointSecret(event);
  if (secret === undefined)
    throw new SandboxError(
      "deliver() needs the secret your handler verifies with: pass { secret: 'whsec_…' }, or add an endpoint for the event's account.",
    );
  const bytes = secretBytes(secret);
  const to = receiver(target, ctx);
  const attempts: DeliverAttempt[] = [];
  for (const p of plan(event, options)) {
    const request = await message(p, bytes);
    const outcome = await to.send(request, p.event, options.timeoutMs ?? ctx.timeoutMs);
    const accepted = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    attempts.push({
      kind: p.kind,
      tamper: p.tamper,
      request,
      status: outcome.status,
      body: outcome.response,
      latencyMs: outcome.latencyMs,
      error: outcome.error,
      accepted,
      expected: p.tamper === null ? 'accept' : 'reject',
      countedAsFailed: p.countedAsFailed,
    });
    if (accepted && p.tamper !== null)
      ctx.accepted(p.tamper.startsWith('timestamp') ? 'stale-timestamp' : 'bad-signature', event);
  }
  const verdicts = judge(attempts);
  return { eventId: event.id, target: to.name, attempts, verdicts, ok: verdicts.every((v) => v.passed) };
}

/** The target as a sender: a checked URL through `fetch`, or the handler called with a `Request`. */
function receiver(target: DeliverTarget, ctx: DeliverContext) {
  if (typeof target === 'function') {
    return {
      name: 'in-process',
      async send(request: SignedWebhook, event: WebhookEvent, timeoutMs: number): Promise<SendOutcome> {
        let text: string | null = null;
        const callback: WebhookCallback = async () => {
          const res = await target(
            new Request('http://handler.test/webhook', {
              method: 'POST',
              headers: request.headers,
              body: request.body,
            }),
          );
          text = res instanceof Response ? (await res.text().catch(() => '')).slice(0, 500) : null;
          return res;
        };
        const outcome = await send({ url: null, callback }, { url: null, ...request, event }, timeoutMs);
        return { ...outcome, response: text };
      },
    };
  }
  const url = parseInput(webhookUrl, target, 'target');
  const refused = ctx.refused(url);
  if (refused) throw new SandboxError(`target: ${refused}`);
  return {
    name: url,
    send: (request: SignedWebhook, event: WebhookEvent, timeoutMs: number) =>
      send({ url }, { url, ...request, event }, timeoutMs),
  };
}
