/**
 * Headless Chromium for the browser tests, from the npm registry: `@sparticuz/chromium` ships a Chromium build with
 * the libraries it needs (no system package), driven by playwright-core. `CHROMIUM_PATH` picks another binary.
 */
import sparticuz from '@sparticuz/chromium';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The path of the Chromium binary: `CHROMIUM_PATH`, or the npm package's build (unpacked into the temp dir once). */
export async function chromiumPath(): Promise<string> {
  return process.env.CHROMIUM_PATH || (await sparticuz.executablePath());
}

/** Launches headless Chromium with the flags a closed network needs. */
export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  const executablePath = await chromiumPath();
  const args = process.env.CHROMIUM_PATH ? ['--headless', ...FLAGS] : [...sparticuz.args, ...FLAGS];
  return chromium.launch({
    executablePath,
    headless: true,
    timeout: 60_000,
    ...options,
    args: [...args, ...(options.args ?? [])],
  });
}
