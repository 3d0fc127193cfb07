/**
 * The browser example (examples/browser): the sandbox's handlers in MSW's service worker (`setupWorker`), called by
 * the page with fetch, in headless Chromium (Chromium from the npm registry, test/support/browser.ts). Needs a built dist/
 * (`npm test` builds it). SKIP_BROWSER_TESTS=1 skips it; otherwise a missing Chromium fails it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM scripts of the example, no declarations
import { buildExample } from '../../examples/browser/build.mjs';
// @ts-expect-error plain ESM scripts of the example, no declarations
import { serve } from '../../examples/browser/serve.mjs';
import { launchChromium } from '../support/browser.js';
import { ensureBuilt } from '../support/built.js';

interface Row {
  label: string;
  status: number;
  code: string | null;
  json?: any;
  remaining?: string | null;
  retryAfter?: string | null;
  error?: string;
}

describe.skipIf(process.env.SKIP_BROWSER_TESTS === '1')('browser example in headless Chromium', () => {
  let dir = '';
  let site: { url: string; close(): Promise<void> };
  let browser: Browser;

  beforeAll(async () => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'aws-browser-'));
    await buildExample(dir);
    site = await serve(dir);
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the page reaches the API, the scenarios and reset() through the worker', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(site.url);
    await page.waitForFunction(() => (window as { __results?: unknown }).__results !== undefined, undefined, {
      timeout: 30_000,
    });
    const results = (await page.evaluate(() => (window as { __results?: unknown }).__results)) as Row[];
    expect(errors).toEqual([]);
    const by = Object.fromEntries(results.map((r) => [r.label, r]));
    expect(by['GET /ext/agents']).toMatchObject({ status: 200 });
    expect(by['GET /ext/agents']!.json.data).toHaveLength(5);
    expect(by['POST /ext/tasks']).toMatchObject({ status: 201, json: { status: 'queued' } });
    expect(by['GET /ext/tasks/:id after 10 minutes']!.json.status).toBe('completed');
    expect(by['GET /ext/usage']!.json.tasks.completed).toBe(1);
    expect(by['magic key ak_magic_rate_limited']).toMatchObject({
      status: 429,
      code: 'rate_limit_exceeded',
      remaining: '0',
    });
    expect(by['magic key ak_magic_rate_limited']!.retryAfter).toMatch(/^[1-9][0-9]*$/);
    expect(by['X-Sandbox-Scenario: unavailable']).toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(by['useScenario("out-of-credits"), POST /ext/tasks']).toMatchObject({
      status: 402,
      code: 'insufficient_credits',
    });
    expect(by['useScenario("network-error")']).toMatchObject({ status: 0, code: 'network_error' });
    expect(by['useScenario("network-error")']!.error).toMatch(/^TypeError/);
    expect(by['after reset()']).toMatchObject({ status: 200 });
    expect(await page.locator('#status').textContent()).toBe('Done.');
    await page.close();
  }, 60_000);
});
