/**
 * The inspector's charts under any browser language: headless Chromium with LANG=C.UTF-8 reports `en-US@posix`, a tag
 * Intl refuses (uPlot used to throw "Invalid language tag" as it loaded, leaving the charts blank). Each chart must draw
 * on a direct load of #panel-charts, under that tag and a normal locale, in light and dark, at 1280×800 and 390×844.
 * The request list, under the same page: its id and account columns, and the search by request id.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/index.js';
import type { RunningServer } from '../../src/sandbox-types.js';
import { launchChromium } from '../support/browser.js';

const CHARTS = ['chart-requests', 'chart-rate', 'chart-money', 'chart-tasks'];
const LANGUAGES = ['en-US@posix', 'de-DE'];
const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

describe.skipIf(process.env.SKIP_BROWSER_TESTS === '1')(
  'the inspector charts in any locale (headless Chromium)',
  () => {
    let browser: Browser;
    let sandbox: Sandbox;
    let server: RunningServer;

    beforeAll(async () => {
      sandbox = createSandbox({ fixtures: 'marketplace', clock: 'manual', now: '2026-11-22T09:30:00Z' });
      server = await sandbox.listen({ port: 0 });
      for (let i = 0; i < 3; i++)
        await fetch(`${server.url}/api/v1/ext/agents`, { headers: { Authorization: 'Bearer ak_demo_acme_admin' } });
      browser = await launchChromium();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    const cases = LANGUAGES.flatMap((language) =>
      SIZES.flatMap((size) => (['light', 'dark'] as const).map((scheme) => [language, size, scheme] as const)),
    );
    it.each(cases)(
      '%s at %o in %s: the four charts draw on a direct load, no error',
      async (language, size, scheme) => {
        const page = await browser.newPage({ viewport: size, colorScheme: scheme });
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        // The tag as the browser reports it, set before any script of the page runs.
        await page.addInitScript((tag) => {
          Object.defineProperty(Navigator.prototype, 'language', { get: () => tag, configurable: true });
          Object.defineProperty(Navigator.prototype, 'languages', { get: () => [tag], configurable: true });
        }, language);
        try {
          await page.goto(`${server.url}/__sandbox/#panel-charts`);
          for (const id of CHARTS) await page.locator(`#${id} canvas`).first().waitFor({ timeout: 10_000 });
          expect(errors).toEqual([]);
          expect(await page.evaluate(() => typeof (window as { uPlot?: unknown }).uPlot)).toBe('function');
        } finally {
          await page.close();
        }
      },
      60_000,
    );

    it('the request list shows id and account; a request id from a client log opens that request', async () => {
      const page = await browser.newPage({ viewport: SIZES[0] });
      try {
        await page.goto(`${server.url}/__sandbox/`);
        const row = page.locator('#requests tbody tr[data-id="req_000002"]');
        await row.waitFor({ timeout: 10_000 });
        expect(await page.locator('#requests thead').innerText()).toMatch(
          /id\s+time\s+method\s+path\s+status\s+code\s+account/,
        );
        expect(await row.innerText()).toContain('acc_acme');
        await page.locator('#f-id').fill('req_000002');
        await page.locator('#f-id').press('Enter');
        await page.locator('#detail[open]').waitFor({ timeout: 10_000 });
        expect(await page.locator('#detail').innerText()).toContain('/api/v1/ext/agents');
      } finally {
        await page.close();
      }
    }, 60_000);
  },
);
