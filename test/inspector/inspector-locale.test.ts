/**
 * The inspector's charts under any browser language: headless Chromium with LANG=C.UTF-8 reports `en-US@posix`, a tag
 * Intl refuses (uPlot used to throw "Invalid language tag" as it loaded, leaving the charts blank). Each chart must draw
 * on a direct load of #panel-charts, under that tag and a normal locale, in light and dark, at 1280×800 and 390×844.
 * A direct load draws every chart (its canvas holds pixels) within a bounded wait, load after load. The request list,
 * under the same page: its id, account and latency columns, and the search by request id.
 */
import type { Browser, Page } from 'playwright-core';
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
/** How long a direct load may take to draw the four charts (real ms; the page draws them on its first reads). */
const DRAWN_WITHIN_MS = 5000;

/** True when each chart's canvas holds a drawn pixel (axes at least): a blank or missing canvas is false. */
function chartsDrawn(ids: string[]): boolean {
  return ids.every((id) => {
    const canvas = document.querySelector<HTMLCanvasElement>(`#${id} canvas`);
    if (!canvas || canvas.width === 0 || canvas.height === 0) return false;
    const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) return true;
    return false;
  });
}

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
      // req_000004: held 500 ms (real time) by the latency scenario's default delay.
      await fetch(`${server.url}/api/v1/ext/agents`, {
        headers: { Authorization: 'Bearer ak_demo_acme_admin', 'X-Sandbox-Scenario': 'latency' },
      });
      browser = await launchChromium();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    /** A fresh page whose browser reports `language` (set before any script of the page runs), its errors kept. */
    async function pageIn(
      language: string,
      size = SIZES[0]!,
      scheme: 'light' | 'dark' = 'light',
    ): Promise<{ page: Page; errors: string[] }> {
      const page = await browser.newPage({ viewport: size, colorScheme: scheme });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.addInitScript((tag) => {
        Object.defineProperty(Navigator.prototype, 'language', { get: () => tag, configurable: true });
        Object.defineProperty(Navigator.prototype, 'languages', { get: () => [tag], configurable: true });
      }, language);
      return { page, errors };
    }

    const cases = LANGUAGES.flatMap((language) =>
      SIZES.flatMap((size) => (['light', 'dark'] as const).map((scheme) => [language, size, scheme] as const)),
    );
    it.each(cases)(
      '%s at %o in %s: the four charts draw on a direct load, no error',
      async (language, size, scheme) => {
        const { page, errors } = await pageIn(language, size, scheme);
        try {
          await page.goto(`${server.url}/__sandbox/#panel-charts`);
          for (const id of CHARTS) await page.locator(`#${id} canvas`).first().waitFor({ timeout: 10_000 });
          await page.waitForFunction(chartsDrawn, CHARTS, { timeout: DRAWN_WITHIN_MS });
          expect(errors).toEqual([]);
          expect(await page.evaluate(() => typeof (window as { uPlot?: unknown }).uPlot)).toBe('function');
        } finally {
          await page.close();
        }
      },
      60_000,
    );

    it.each(LANGUAGES)(
      '%s: each of five fresh direct loads of #panel-charts, with no click, draws the four charts in time',
      async (language) => {
        for (let load = 0; load < 5; load++) {
          const { page, errors } = await pageIn(language);
          try {
            const started = Date.now();
            await page.goto(`${server.url}/__sandbox/#panel-charts`, { waitUntil: 'commit' });
            await page.waitForFunction(chartsDrawn, CHARTS, { timeout: DRAWN_WITHIN_MS, polling: 50 });
            expect(Date.now() - started, `load ${load + 1}`).toBeLessThan(DRAWN_WITHIN_MS);
            expect(errors, `load ${load + 1}`).toEqual([]);
          } finally {
            await page.close();
          }
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

    it('the request list and detail show the latency a scenario held each answer: 500 ms under latency, — without', async () => {
      const page = await browser.newPage({ viewport: SIZES[0] });
      try {
        await page.goto(`${server.url}/__sandbox/`);
        const held = page.locator('#requests tbody tr[data-id="req_000004"] td[data-label="latency"]');
        await held.waitFor({ timeout: 10_000 });
        expect(await page.locator('#requests thead').innerText()).toMatch(/key\s+latency\s+scenarios/);
        expect(await held.innerText()).toBe('500 ms');
        for (const id of ['req_000001', 'req_000002', 'req_000003'])
          expect(await page.locator(`#requests tbody tr[data-id="${id}"] td[data-label="latency"]`).innerText()).toBe(
            '—',
          );
        expect(await page.locator('#requests tbody tr[data-id="req_000004"]').innerText()).toContain('latency');
        await page.locator('#requests tbody tr[data-id="req_000004"]').click();
        await expect.poll(() => page.locator('#detail .facts').innerText()).toMatch(/latency\s+500 ms/);
      } finally {
        await page.close();
      }
    }, 60_000);
  },
);
