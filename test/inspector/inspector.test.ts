/**
 * The inspector page in headless Chromium (Chromium from the npm registry, test/support/browser.ts).
 * SKIP_BROWSER_TESTS=1 skips it; the browser comes from the npm registry (test/support/browser.ts).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { createSandbox, type Sandbox } from '../../src/index.js';
import type { RunningServer } from '../../src/sandbox-types.js';
import { tempDir } from '../support/temp.js';

// docs/inspector.png is rewritten only with UPDATE_SCREENSHOTS=1, so a test run leaves the work tree clean.
const SCREENSHOT =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? join(import.meta.dirname, '..', '..', 'docs', 'inspector.png')
    : join(tempDir('aws-inspector-'), 'inspector.png');

describe.skipIf(process.env.SKIP_BROWSER_TESTS === '1')('the inspector at /__sandbox/ (headless Chromium)', () => {
  let browser: Browser;
  let sandbox: Sandbox;
  let server: RunningServer;
  let page: Page;
  const api = (path: string, key: string, init: RequestInit = {}) =>
    fetch(`${server.url}/api/v1${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...init.headers },
    });

  beforeAll(async () => {
    sandbox = createSandbox({ fixtures: 'marketplace', clock: 'manual', now: '2026-11-22T09:30:00Z' });
    server = await sandbox.listen({ port: 0 });
    browser = await launchChromium();
    // A fixed locale: uPlot formats numbers with the browser's language (a bare Chromium may report 'en-US@posix').
    page = await browser.newPage({ locale: 'en-US', viewport: { width: 1600, height: 1000 } });
    await page.goto(`${server.url}/__sandbox/`);
    await page.locator('#live.on').waitFor({ timeout: 5000 });
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows a request made by a client within a second, with its status and error code (screenshot: docs/inspector.png)', async () => {
    const agents = await (await api('/ext/agents?limit=4', 'ak_demo_acme_admin')).json();
    await api('/ext/tasks', 'ak_demo_acme_admin', {
      method: 'POST',
      body: JSON.stringify({
        agent_id: agents.data[0].id,
        description: 'Summarize the Q3 board deck.',
        priority: 'high',
      }),
    });
    await api('/ext/tasks', 'ak_demo_acme_admin', {
      method: 'POST',
      body: JSON.stringify({ agent_id: agents.data[1].id, description: 'Draft the launch email.' }),
    });
    await api('/ext/usage', 'ak_demo_acme_read_agents');
    const made = Date.now();
    await api('/ext/agents/agt_nope', 'ak_demo_globex_admin');
    const newest = page.locator('#requests tbody tr').first();
    await expect
      .poll(() => newest.innerText(), { timeout: 1000, interval: 50 })
      .toContain('/api/v1/ext/agents/agt_nope');
    expect(Date.now() - made).toBeLessThan(1000);
    expect(await newest.innerText()).toMatch(/404\s+not_found/);
    const second = await page.locator('#requests tbody tr').nth(1).innerText();
    expect(second).toMatch(/\/api\/v1\/ext\/usage\s+403\s+insufficient_scope/);
    await expect.poll(() => page.locator('#tasks tbody tr').count()).toBe(2);
    expect(await page.locator('#tasks').innerText()).toContain('queued');
    sandbox.clock.advance('1500ms');
    await expect.poll(() => page.locator('#tasks').innerText()).toContain('running');
    await page.screenshot({ path: SCREENSHOT });
    expect(statSync(SCREENSHOT).size).toBeGreaterThan(10_000);
  });

  it('shows accounts with plan, balance, holds and the rate-limit window, keys with scopes', async () => {
    const acme = page.locator('#accounts tbody tr', { hasText: 'acc_acme' });
    await expect.poll(() => acme.innerText()).toMatch(/pro\s+\$\d+\.\d+\s+\$\d+\.\d+\s+4 \/ 300 rpm/);
    // Keys show by their prefix only (the whole key comes from GET /__sandbox/keys): rows are found by the key's id.
    const revoked = page.locator('#keys tbody tr[data-key="key_acme_revoked"]');
    expect(await revoked.getAttribute('class')).toBe('revoked');
    expect(await revoked.innerText()).toContain('ak_demo…');
    expect(await page.locator('#keys').innerText()).not.toContain('ak_demo_acme_revoked');
    expect(await page.locator('#agents tbody tr').count()).toBe(36);
  });

  it('advances the clock with a button, and tasks move on', async () => {
    await page.getByRole('button', { name: '+1 min' }).click();
    await expect.poll(() => page.locator('#clock').innerText()).toContain('2026-11-22 09:31:01.500Z');
    await expect.poll(() => page.locator('#tasks').innerText()).not.toContain('queued');
    expect(sandbox.clock.now()).toBe(Date.parse('2026-11-22T09:31:01.500Z'));
  });

  it('applies and clears a scenario', async () => {
    await page.locator('#scenario').selectOption('rate-limited');
    await page.locator('#scope').selectOption('acc_globex');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.locator('#scenarios').innerText()).toContain('rate-limited @acc_globex');
    expect((await api('/ext/usage', 'ak_demo_globex_admin')).status).toBe(429);
    await expect
      .poll(() => page.locator('#requests tbody tr').first().innerText())
      .toMatch(/429\s+rate_limit_exceeded/);
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await expect.poll(() => page.locator('#scenarios').innerText()).not.toContain('rate-limited @acc_globex');
    expect(await page.locator('#scenarios').innerText()).toContain('12 on keys');
    expect((await api('/ext/usage', 'ak_magic_rate_limited')).status).toBe(429);
    expect((await api('/ext/usage', 'ak_demo_globex_admin')).status).toBe(200);
  });

  it('revokes a key', async () => {
    await page.locator('button[data-revoke="key_initech_admin"]').click();
    await expect
      .poll(() => page.locator('#keys tbody tr[data-key="key_initech_admin"]').getAttribute('class'))
      .toBe('revoked');
    expect((await api('/ext/agents', 'ak_demo_initech_admin')).status).toBe(401);
  });

  it('puts the sandbox into the page as text, never as HTML', async () => {
    await api('/ext/agents/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E', 'ak_demo_acme_admin');
    await expect.poll(() => page.locator('#requests tbody tr').first().innerText()).toContain('%3Cimg');
    expect(await page.locator('#requests img').count()).toBe(0);
  });

  it('resets', async () => {
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Reset' }).click();
    await expect.poll(() => page.locator('#tasks tbody tr').first().innerText()).toContain('No tasks yet');
    expect(sandbox.tasks.list()).toEqual([]);
  });
});
