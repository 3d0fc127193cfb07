/** Standard Webhooks 1.0 signing through Web Crypto (runs in Node, browsers and workers alike). */
import { rngFor } from '../model/random.js';
import { SandboxError } from '../errors.js';
import { WEBHOOK_USER_AGENT } from './url-guard.js';

const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 24;

/** How far `webhook-timestamp` may be from the receiver's clock, in seconds: the Standard Webhooks tolerance. */
const TOLERANCE_SECONDS = 300;
/** How far a stale or future timestamp is moved: twice the tolerance, so no verifier's rounding lets it through. */
export const OUT_OF_TOLERANCE_SECONDS = 2 * TOLERANCE_SECONDS;

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** A `whsec_…` secret of 24 bytes derived from (seed, label): the same sandbox gives the same secrets. */
export function seededSecret(seed: number, label: string): string {
  const rand = rngFor(seed, `webhook-secret:${label}`);
  const bytes = new Uint8Array(SECRET_BYTES);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(rand() * 256);
  return SECRET_PREFIX + toBase64(bytes);
}

/** The key bytes of a `whsec_` secret; throws SandboxError when it is not one (base64 of 24 to 64 bytes). */
export function secretBytes(secret: string): Uint8Array<ArrayBuffer> {
  const body = typeof secret === 'string' && secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : '';
  let bytes: Uint8Array<ArrayBuffer> | undefined;
  try {
    bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(body) ? fromBase64(body) : undefined;
  } catch {
    bytes = undefined;
  }
  if (!bytes || bytes.length < 24 || bytes.length > 64) {
    throw new SandboxError(`A webhook secret must be "whsec_" followed by the base64 of 24 to 64 random bytes.`);
  }
  return bytes;
}

/** Imports the key for HMAC-SHA256 signing. */
export function importKey(bytes: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`: the `webhook-signature` header. */
export async function sign(key: CryptoKey, id: string, timestamp: number, body: string): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${body}`));
  return `v1,${toBase64(new Uint8Array(mac))}`;
}

/** A key that is not the endpoint's (`webhook-bad-signature`): its bytes with every bit flipped. */
export function wrongKeyBytes(bytes: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  return bytes.map((b) => b ^ 0xff);
}

/** The headers of a message: the Standard Webhooks three, its content type and the sandbox's user agent. */
export function webhookHeaders(id: string, timestamp: number, signature: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature,
  };
}
