/**
 * The main entry and `agent-work-sandbox/browser` are browser-safe (docs/architecture.md): a small app
 * (test/bundlers/main.js) that imports both is built with Vite and with esbuild, each with no configuration, and runs in
 * headless Chromium (test/support/browser.ts). Needs a built dist/ (`npm test` builds it). SKIP_BROWSER_TESTS=1 skips it.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script of the browser example, no declarations
import { serve } from '../../examples/browser/serve.mjs';
import { launchChromium } from '../support/browser.js';
import { ensureBuilt, ROOT } from '../support/built.js';

const run = promisify(execFile);
const BIN = (name: string) => join(ROOT, 'node_modules', '.bin', name);
const HTML = (script: string, module: boolean) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>app</title></head><body><script${module ? ' type="module"' : ''} src="${script}"></script></body></html>\n`;

/** A fresh app folder with the package installed as a link (as `npm install ../agent-work-sandbox` does). */
function app(): string {
  const dir = mkdtempSync(join(tmpdir(), 'aws-bundlers-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'agent-work-sandbox'), 'dir');
  copyFileSync(join(ROOT, 'test', 'package', 'bundlers', 'main.js'), join(dir, 'main.js'));
  return dir;
}

describe.skipIf(process.env.SKIP_BROWSER_TESTS === '1')('the package in a browser bundle', () => {
  let browser: Browser;
  const dirs: string[] = [];

  beforeAll(async () => {
    ensureBuilt();
    browser = await launchChromium();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  async function runInChromium(site: string) {
    const server = (await serve(site)) as { url: string; close(): Promise<void> };
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(server.url);
      await page.waitForFunction(() => (window as { __result?: unknown }).__result !== undefined, undefined, {
        timeout: 20_000,
      });
      return { result: await page.evaluate(() => (window as { __result?: unknown }).__result), errors };
    } finally {
      await page.close();
      await server.close();
    }
  }

  const EXPECTED = { agents: 200, plan: 'free', scenarios: 16, sameEntry: true, listen: 'invalid_request' };

  it('Vite builds it with no configuration, and it runs in Chromium', async () => {
    const dir = app();
    dirs.push(dir);
    writeFileSync(join(dir, 'index.html'), HTML('/main.js', true));
    await run(BIN('vite'), ['build', '--logLevel', 'error'], {
      cwd: dir,
      timeout: 120_000,
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    const { result, errors } = await runInChromium(join(dir, 'dist'));
    expect(errors).toEqual([]);
    expect(result).toMatchObject(EXPECTED);
    expect((result as { count: number }).count).toBeGreaterThan(0);
  }, 180_000);

  it('esbuild bundles it with no configuration, and it runs in Chromium', async () => {
    const dir = app();
    dirs.push(dir);
    const site = join(dir, 'site');
    mkdirSync(site);
    writeFileSync(join(site, 'index.html'), HTML('/app.js', false));
    const { stderr } = await run(
      BIN('esbuild'),
      ['main.js', '--bundle', `--outfile=${join(site, 'app.js')}`, '--log-level=error'],
      { cwd: dir, timeout: 120_000 },
    );
    expect(stderr).toBe('');
    const { result, errors } = await runInChromium(site);
    expect(errors).toEqual([]);
    expect(result).toMatchObject(EXPECTED);
  }, 180_000);
});
