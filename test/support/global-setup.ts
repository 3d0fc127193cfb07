/** Unpacks the npm registry's Chromium once, before the test files run in parallel (they then share the binary). */
import { chromiumPath } from './browser.js';

export default async function setup(): Promise<void> {
  if (process.env.SKIP_BROWSER_TESTS === '1') return;
  process.env.CHROMIUM_PATH = await chromiumPath();
}
