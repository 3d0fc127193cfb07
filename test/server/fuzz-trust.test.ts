/**
 * Fuzz cases for issue 14's classes: keys in any encoding, hostile Host values, malformed control-API input.
 * Seeded like test/hardening/fuzz.test.ts (`FUZZ_SEED=n` replays, `FUZZ_RUNS` sizes).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, createSandboxCore, type Sandbox } from '../../src/index.js';
import { isIP } from 'node:net';
import { SandboxError } from '../../src/errors.js';
import { hostOfHeader, isLoopback } from '../../src/server/loopback.js';
import { controlBodies, parseInput } from '../../src/schemas.js';
import { fuzzSeed } from './fuzz-cases.js';
import { httpCall } from './cli-server.js';

const seed = fuzzSeed();
const runs = Number(process.env.FUZZ_RUNS ?? 500);

/** A text with each character left, percent-encoded (either hex case), or encoded twice. */
const encoded = (text: string) =>
  fc.array(fc.constantFrom(0, 1, 2, 3), { minLength: text.length, maxLength: text.length }).map((how) =>
    [...text]
      .map((ch, i) => {
        const hex = ch.charCodeAt(0).toString(16).padStart(2, '0');
        return [ch, `%${hex}`, `%${hex.toUpperCase()}`, `%25${hex}`][how[i]!]!;
      })
      .join(''),
  );

describe('fuzz: a key in any encoding, anywhere in the request, is never recorded or echoed whole', () => {
  it('masks it in the journal and in the answer', () => {
    const sandbox = createSandboxCore({ clock: 'manual' });
    const { key } = sandbox.keys.create({ scopes: ['admin'] });
    const secret = key.slice(3);
    fc.assert(
      fc.property(encoded(key), fc.constantFrom('path', 'query', 'unknown', 'task-id'), (k, where) => {
        sandbox.clearRequests();
        const path =
          where === 'path'
            ? `/ext/${k}`
            : where === 'unknown'
              ? `/nowhere/${k}/x`
              : where === 'task-id'
                ? `/ext/tasks/${k}`
                : '/ext/agents';
        const res = sandbox.handle({
          method: 'GET',
          path,
          query: where === 'query' ? `api_key=${k}` : '',
          header: (n) => (n === 'authorization' ? `Bearer ${key}` : undefined),
          body: '',
          clientId: 'fuzz',
        });
        const recorded = JSON.stringify(sandbox.findRequests());
        return !res.body.includes(secret) && !recorded.includes(secret);
      }),
      { seed, numRuns: runs },
    );
  });
});

describe('fuzz: hostile Host values', () => {
  const hostile = fc.oneof(
    fc.domain().map((d) => `127.${d}`),
    fc.domain().map((d) => `localhost.${d}`),
    fc.domain(),
    fc.tuple(fc.ipV4(), fc.domain()).map(([ip, d]) => `${ip}.${d}`),
    fc.tuple(fc.ipV4(), fc.domain()).map(([ip, d]) => `${ip}@${d}`),
    fc.string(),
  );
  it('is loopback only for 127.0.0.0/8 literals, ::1 and localhost', () => {
    fc.assert(
      fc.property(hostile, fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }), (host, port) => {
        const name = hostOfHeader(port === undefined ? host : `${host}:${port}`);
        if (!isLoopback(name)) return true;
        return name === 'localhost' || name === '::1' || (isIP(name) === 4 && name.startsWith('127.'));
      }),
      { seed, numRuns: runs * 4 },
    );
  });
});

describe('fuzz: malformed control input', () => {
  let sandbox: Sandbox;
  let origin: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    sandbox = createSandbox({ clock: 'manual' });
    const running = await sandbox.listen({ port: 0 });
    origin = running.url;
    close = running.close;
  });
  afterAll(() => close());

  it('every shared schema refuses with a SandboxError naming a field (never another error)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...(Object.keys(controlBodies) as (keyof typeof controlBodies)[])),
        fc.jsonValue(),
        (name, value) => {
          try {
            parseInput(controlBodies[name], value, 'the request body');
            return true;
          } catch (error) {
            return error instanceof SandboxError;
          }
        },
      ),
      { seed, numRuns: runs * 4 },
    );
  });

  it('the control API answers random bodies, types and filters with a 2xx or a 4xx in the error shape, never a 5xx', async () => {
    const routes: [string, string][] = [
      ['POST', '/__sandbox/accounts'],
      ['PATCH', '/__sandbox/accounts/acc_demo'],
      ['POST', '/__sandbox/keys'],
      ['POST', '/__sandbox/clock'],
      ['POST', '/__sandbox/scenarios'],
      ['PUT', '/__sandbox/state'],
      ['POST', '/__sandbox/accounts/acc_demo/webhooks'],
      ['DELETE', '/__sandbox/scenarios'],
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.oneof(
          fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null'),
          fc.string(),
          fc.constant('['.repeat(100)),
        ),
        fc.constantFrom(
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/vnd.x+json',
        ),
        fc.constantFrom(
          '',
          '?account_id=acc_demo',
          '?account_id[__proto__]=x',
          '?scope=sandbox',
          '?x=1',
          '?key_id[]=a',
        ),
        async ([method, path], body, type, query) => {
          sandbox.reset();
          const res = await httpCall(origin, method, path + query, { headers: { 'content-type': type }, body });
          if (res.status >= 500) return false;
          if (res.status >= 400) return typeof (res.json as { error?: { code?: unknown } })?.error?.code === 'string';
          return true;
        },
      ),
      { seed, numRuns: Math.min(runs, 200) },
    );
    expect((await httpCall(origin, 'GET', '/__sandbox/clock')).status).toBe(200);
  });
});
