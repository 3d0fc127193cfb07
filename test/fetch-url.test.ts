/** `sandbox.fetch` reads a plain string URL without `URL`: the same path and query as the URL parser gives. */
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../src/index.js';
import { splitPlainUrl } from '../src/http/fetch-url.js';
import { keyOf } from './support/doors.js';

/** What `URL` gives for the same string: path below the base path and query, null when not below, or a throw. */
function viaUrl(input: string, base: string | undefined, basePath: string) {
  const url = new URL(input);
  const query = url.search.slice(1);
  if (base) return url.href.startsWith(`${base}/`) ? { path: url.pathname.slice(basePath.length), query } : null;
  const at = url.pathname.indexOf(`${basePath}/`);
  return at === -1 ? null : { path: url.pathname.slice(at + basePath.length), query };
}

const INPUTS = [
  'http://sandbox.test/api/v1/ext/agents',
  'http://sandbox.test/api/v1/ext/agents?limit=2&cursor=abc',
  'http://sandbox.test/api/v1/ext/agents?',
  'https://api.example.com/api/v1/ext/tasks/task_1',
  'http://127.0.0.1:3000/api/v1/ext/agents?limit=1',
  'http://localhost:65535/api/v1/ext/agents',
  'http://localhost:65536/api/v1/ext/agents',
  'http://sandbox.test/other/api/v1/ext/agents',
  'http://sandbox.test/api/v2/ext/agents',
  'http://SANDBOX.test/api/v1/ext/agents',
  'http://sandbox.test:80/api/v1/ext/agents',
  'https://sandbox.test:443/api/v1/ext/agents',
  'http://sandbox.test/api/v1/ext/../ext/agents',
  'http://sandbox.test/api/v1/./ext/agents',
  'http://sandbox.test/api/v1/ext/agents/%2e%2e',
  'http://sandbox.test/api/v1/ext/agents/a b',
  "http://sandbox.test/api/v1/ext/agents?q='x'",
  'http://sandbox.test/api/v1/ext/agents?q="x"',
  'http://sandbox.test/api/v1/ext/agents#frag',
  'http://sandbox.test/api/v1/ext/agents/é',
  'http://sandbox.test/api/v1\\ext\\agents',
  'http://user:pw@sandbox.test/api/v1/ext/agents',
  'http://999/api/v1/ext/agents',
  'http://1.2.3.4.5/api/v1/ext/agents',
  'http://256.1.1.1/api/v1/ext/agents',
  'http://xn--a.test/api/v1/ext/agents',
  'http://a.1/api/v1/ext/agents',
  'http://sandbox.test/api/v1/ext/agents?%zz=1&a=%41',
  'http://sandbox.test/api/v1/ext/tasks/ak_secret?key=ak_x',
];

describe('sandbox.fetch reads a plain URL string as the URL parser does', () => {
  for (const [base, basePath] of [
    [undefined, '/api/v1'],
    ['http://sandbox.test/api/v1', '/api/v1'],
    ['https://api.example.com/api/v1', '/api/v1'],
  ] as const) {
    it(`gives the same path and query as URL (base ${base ?? 'any origin'})`, () => {
      let fast = 0;
      for (const input of INPUTS) {
        const got = splitPlainUrl(input, base && `${base}/`, basePath);
        if (got === undefined) continue; // left to URL
        fast += 1;
        expect(got, input).toEqual(viaUrl(input, base, basePath));
      }
      expect(fast).toBeGreaterThan(0);
    });
  }

  it('leaves the forms the parser changes to URL', () => {
    for (const input of [
      'http://sandbox.test/api/v1/ext/../ext/agents',
      'http://sandbox.test/api/v1/ext/agents/%2E%2e',
      'http://sandbox.test/api/v1/ext/agents/a b',
      "http://sandbox.test/api/v1/ext/agents?q='x'",
      'http://user:pw@sandbox.test/api/v1/ext/agents',
      'http://1.2.3.4.5/api/v1/ext/agents',
      'http://localhost:65536/api/v1/ext/agents',
    ])
      expect(splitPlainUrl(input, undefined, '/api/v1'), input).toBeUndefined();
    // Below the base only after normalising: still answered (through URL), not refused.
    expect(splitPlainUrl('http://SANDBOX.test/api/v1/ext/agents', 'http://sandbox.test/api/v1/', '/api/v1')).toBe(
      undefined,
    );
  });

  it('answers the same bytes for a string, a URL and a normalised string', async () => {
    const base = 'http://sandbox.test/api/v1';
    const answers: string[] = [];
    for (const input of [
      `${base}/ext/agents?limit=2`,
      new URL(`${base}/ext/agents?limit=2`),
      'http://SANDBOX.test:80/api/v1/ext/../ext/agents?limit=2',
    ]) {
      const sandbox = createSandbox({ clock: 'manual', baseUrl: base });
      const res = await sandbox.fetch(input, { headers: { authorization: `Bearer ${keyOf(sandbox)}` } });
      answers.push(`${res.status} ${JSON.stringify([...res.headers])} ${await res.text()}`);
    }
    expect(answers[0]).toMatch(/^200 /);
    expect(answers[1]).toBe(answers[0]);
    expect(answers[2]).toBe(answers[0]);
  });

  it('refuses a URL outside the base, as before', async () => {
    const sandbox = createSandbox({ clock: 'manual', baseUrl: 'http://sandbox.test/api/v1' });
    await expect(sandbox.fetch('http://other.test/api/v1/ext/agents')).rejects.toThrow(
      /http:\/\/other\.test\/api\/v1\/ext\/agents is not below the sandbox's base URL/,
    );
  });
});
