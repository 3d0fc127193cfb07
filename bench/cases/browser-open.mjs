/**
 * `npm run bench -- --browser`: the server case gets one more target, the sandbox with headless Chromium open on its
 * inspector (`/__sandbox/`, 1280×800, polling every 500 ms) for the whole case, loaded in the same alternating rounds
 * as the sandbox without it. The browser is the test suite's (@sparticuz/chromium, or CHROMIUM_PATH).
 */
import sparticuz from '@sparticuz/chromium';
import { chromium } from 'playwright-core';

/** Wraps a server launcher: the server it starts, with the inspector open on it until `stop()`. */
export function withInspectorOpen(launch) {
  return async () => {
    const target = await launch();
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH || (await sparticuz.executablePath()),
      headless: true,
      args: [...(process.env.CHROMIUM_PATH ? ['--headless'] : sparticuz.args), '--no-sandbox', '--disable-gpu'],
    });
    try {
      const page = await browser.newPage({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
      await page.goto(`${new URL(target.url).origin}/__sandbox/`);
      await page.locator('#live.on').waitFor({ timeout: 30_000 });
    } catch (error) {
      await browser.close();
      target.stop();
      throw error;
    }
    return { ...target, stop: () => (browser.close().catch(() => undefined), target.stop()) };
  };
}
