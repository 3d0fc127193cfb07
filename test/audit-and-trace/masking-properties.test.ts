/**
 * Masking sees every form a key can take. Property tests (fast-check) put keys, in random encodings (plain, mixed
 * case, %-encoded one to six times wholly or in part, JSON `\u` escapes), in random places (the path of the API, of
 * the control API and of no route; a query; Authorization; X-Sandbox-Scenario; Content-Type; another header; a JSON
 * body's field name and value), and assert that no 30-character run of any key appears in any output: the answer, the
 * CLI log (text and JSON), `/__sandbox/overview`, `/__sandbox/inspector/live`, `/__sandbox/requests`, the library's
 * journal. Each output is also checked once decoded, so an encoded key counts as a key.
 */
import fc from 'fast-check';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachRequestLog } from '../../src/cli/request-log.js';
import { maskKeys, STILL_ENCODED } from '../../src/core/mask.js';
import { createSandbox, type Sandbox } from '../../src/index.js';
import { listen, type SandboxServer } from '../../src/server/listen.js';

const RUN = 30;
let sandbox: Sandbox;
let server: SandboxServer;
const logged: string[] = [];
let realKeys: string[];

beforeAll(async () => {
  sandbox = createSandbox({ clock: 'manual', seed: 5 });
  sandbox.accounts.update('acc_demo', { limits: { rpm: 10_000_000, tpm: 1_000_000_000 } });
  realKeys = sandbox.keys.list('acc_demo').map((k) => k.key);
  server = await listen(sandbox);
  attachRequestLog(server.httpServer, 'text', (t) => logged.push(t));
  attachRequestLog(server.httpServer, 'json', (t) => logged.push(t));
});
afterAll(() => server.close());

const KEY_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const aKey = fc.oneof(
  fc.nat(100).map((i) => realKeys[i % realKeys.length]!),
  fc.array(fc.constantFrom(...KEY_CHARS), { minLength: 32, maxLength: 32 }).map((c) => `ak_${c.join('')}`),
);

const percentAll = (s: string, upper: boolean) =>
  [...s]
    .map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`[upper ? 'toUpperCase' : 'toLowerCase']())
    .join('');
const percentSome = (s: string, picks: boolean[]) =>
  [...s].map((c, i) => (picks[i % picks.length] ? `%${c.charCodeAt(0).toString(16).padStart(2, '0')}` : c)).join('');

/** A header-safe encoding of a key: plain, %-encoded (whole or in part) 1 to 6 times, with either case of hex. */
const headerEncoding = fc.record({
  rounds: fc.integer({ min: 0, max: 6 }),
  whole: fc.boolean(),
  upper: fc.boolean(),
  picks: fc.array(fc.boolean(), { minLength: 1, maxLength: 7 }),
  upperPrefix: fc.boolean(),
});
function encodeForHeader(
  key: string,
  e: { rounds: number; whole: boolean; upper: boolean; picks: boolean[]; upperPrefix: boolean },
): string {
  let out = e.upperPrefix ? `AK_${key.slice(3)}` : key;
  for (let i = 0; i < e.rounds; i++) out = e.whole ? percentAll(out, e.upper) : percentSome(out, e.picks);
  return out;
}
/** In a JSON string: some characters as `\u` escapes. */
const jsonEscaped = (key: string, picks: boolean[]) =>
  [...key]
    .map((c, i) => (picks[i % picks.length] ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c))
    .join('');

const PLACES = [
  'api-path',
  'control-path',
  'no-route-path',
  'api-query',
  'control-query',
  'authorization',
  'scenario-header',
  'content-type',
  'other-header',
  'api-body',
  'control-body',
] as const;

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

function placed(place: (typeof PLACES)[number], enc: string, jsonEnc: string, admin: string): Sent {
  const auth = { authorization: `Bearer ${admin}` };
  const json = { 'content-type': 'application/json' };
  switch (place) {
    case 'api-path':
      return { method: 'GET', path: `/api/v1/ext/agents/${enc}`, headers: auth };
    case 'control-path':
      return { method: 'GET', path: `/__sandbox/${enc}`, headers: {} };
    case 'no-route-path':
      return { method: 'GET', path: `/${enc}`, headers: {} };
    case 'api-query':
      return { method: 'GET', path: `/api/v1/ext/agents?cursor=${enc}&${enc}=1`, headers: auth };
    case 'control-query':
      return { method: 'DELETE', path: `/__sandbox/scenarios?${enc}=1`, headers: {} };
    case 'authorization':
      return { method: 'GET', path: '/api/v1/ext/usage', headers: { authorization: `Bearer ${enc}` } };
    case 'scenario-header':
      return { method: 'GET', path: '/api/v1/ext/usage', headers: { ...auth, 'x-sandbox-scenario': enc } };
    case 'content-type':
      return { method: 'POST', path: '/__sandbox/accounts', headers: { 'content-type': `text/${enc}` }, body: '{}' };
    case 'other-header':
      return { method: 'GET', path: '/api/v1/ext/usage', headers: { ...auth, 'x-note': enc } };
    case 'api-body':
      return {
        method: 'POST',
        path: '/api/v1/ext/tasks',
        headers: { ...auth, ...json },
        body: `{"agent_id":"agt_none","description":"x","${jsonEnc}":"${jsonEnc}"}`,
      };
    case 'control-body':
      return { method: 'POST', path: '/__sandbox/accounts', headers: json, body: `{"${jsonEnc}":"${jsonEnc}"}` };
  }
}

function send(s: Sent): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${s.path}`, { method: s.method, headers: s.headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end(s.body);
  });
}

const get = (path: string) => send({ method: 'GET', path, headers: {} });

/** Percent- and JSON escapes decoded, as far as they go (bounded). */
function decoded(text: string): string {
  let out = text;
  for (let i = 0; i < 20; i++) {
    const next = out
      .replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
        try {
          return decodeURIComponent(run);
        } catch {
          return run;
        }
      })
      .replace(/\\u([0-9A-Fa-f]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    if (next === out) break;
    out = next;
  }
  return out;
}

/** The first 30-character run of `key` found in `text` (case-insensitive), if any. */
function leak(text: string, key: string): string | undefined {
  const hay = text.toLowerCase();
  for (let i = 0; i + RUN <= key.length; i++) {
    const run = key.slice(i, i + RUN).toLowerCase();
    if (hay.includes(run)) return run;
  }
  return undefined;
}

describe('masking sees every form a key can take (property tests)', () => {
  it('no 30-character run of any key appears in any output, whatever its encoding and place', async () => {
    await fc.assert(
      fc.asyncProperty(
        aKey,
        fc.constantFrom(...PLACES),
        headerEncoding,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
        async (key, place, encoding, jsonPicks) => {
          const admin = realKeys[0]!;
          const sent = placed(place, encodeForHeader(key, encoding), jsonEscaped(key, jsonPicks), admin);
          logged.length = 0;
          const answer = await send(sent);
          const outputs = {
            answer,
            log: logged.join(''),
            overview: await get('/__sandbox/overview'),
            live: await get('/__sandbox/inspector/live'),
            requests: await get('/__sandbox/requests'),
            journal: JSON.stringify(sandbox.requests.slice(-3)),
          };
          for (const [where, text] of Object.entries(outputs)) {
            // The admin key of the requests themselves is a key too: it must not show either.
            for (const k of [key, admin]) {
              const found = leak(text, k) ?? leak(decoded(text), k);
              if (found) throw new Error(`${place}: a run of ${k.slice(0, 7)}… in ${where}: …${found}…`);
            }
          }
          sandbox.clearRequests();
        },
      ),
      { seed: 20261126, numRuns: 150 },
    );
  }, 120_000);

  it('a key sent plainly is masked to its prefix, and a careful client still recognises its own key', () => {
    const key = realKeys[0]!;
    expect(maskKeys(`/x/${key}`)).toBe(`/x/${key.slice(0, 7)}…`);
    expect(maskKeys('/api/v1/ext/agents?limit=5')).toBe('/api/v1/ext/agents?limit=5'); // nothing to mask: unchanged
    expect(maskKeys('100%25 sure')).toBe('100%25 sure');
  });

  it('decodes %-encoding until nothing changes (five rounds and more), JSON escapes too', () => {
    const key = realKeys[0]!;
    let five = key;
    for (let i = 0; i < 5; i++) five = percentAll(five, false);
    expect(maskKeys(five)).toBe(`${key.slice(0, 7)}…`);
    expect(maskKeys(`{"note":"\\u0061k_${key.slice(3)}"}`)).toBe(`{"note":"${key.slice(0, 7)}…"}`);
  });

  it('a text still encoded after the bound is suspicious: hidden whole', () => {
    let endless = percentAll(realKeys[0]!, false);
    for (let i = 0; i < 18; i++) endless = endless.replace(/%/g, '%25');
    expect(maskKeys(endless)).toBe(STILL_ENCODED);
    // Within the bound it is decoded and masked (sixteen rounds in all).
    let within = percentAll(realKeys[0]!, false);
    for (let i = 0; i < 15; i++) within = within.replace(/%/g, '%25');
    expect(maskKeys(within)).toBe(`${realKeys[0]!.slice(0, 7)}…`);
  });
});
