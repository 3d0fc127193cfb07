/**
 * The inspector's panels in headless Chromium: request detail and filters, the audit panel, webhooks (replay, test
 * event), the charts, and the layout at 1280×800 and 390×844 (nothing overflows sideways). Screenshots of each panel
 * at both sizes go to docs/inspector/ with UPDATE_SCREENSHOTS=1 (else to the temp dir). SKIP_BROWSER_TESTS=1 skips.
 */
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { createSandbox, type Sandbox } from '../../src/index.js';
import type { RunningServer } from '../../src/sandbox-types.js';
import { tempDir } from '../support/temp.js';

const SHOTS =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? join(import.meta.dirname, '..', '..', 'docs', 'inspector')
    : tempDir('aws-inspector-panels-');
const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const PANELS = ['requests', 'audit', 'webhooks', 'charts', 'tasks', 'accounts', 'keys', 'agents'] as const;

describe.skipIf(process.env.SKIP_BROWSER_TESTS === '1')('the inspector panels (headless Chromium)', () => {
  let browser: Browser;
  let sandbox: Sandbox;
  let server: RunningServer;
  let page: Page;
  const received: string[] = [];
  const api = (path: string, key: string, init: RequestInit = {}) =>
    fetch(`${server.url}/api/v1${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...init.headers },
    });

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    sandbox = createSandbox({ fixtures: 'marketplace', clock: 'manual', now: '2026-11-22T09:30:00Z' });
    sandbox.webhooks.add({
      accountId: 'acc_acme',
      callback: (message) => void received.push(message.headers['webhook-id']!),
    });
    server = await sandbox.listen({ port: 0 });
    const agents = (await (await api('/ext/agents?limit=3', 'ak_demo_acme_admin')).json()).data;
    for (let i = 0; i < 6; i++) {
      sandbox.clock.advance('2s');
      await api('/ext/tasks', 'ak_demo_acme_admin', {
        method: 'POST',
        body: JSON.stringify({
          agent_id: agents[i % 3].id,
          description: `Task ${i}: <b onmouseover=alert(1)>bold</b>`,
          priority: 'high',
        }),
      });
      await api('/ext/usage', i % 2 ? 'ak_demo_acme_read_agents' : 'ak_demo_globex_admin');
    }
    await api('/ext/agents/agt_nope', 'ak_demo_globex_admin', {
      headers: { 'X-Evil': '<img src=x onerror=alert(1)>' },
    });
    // An answer held by the latency scenario (its default 500 ms, real time): the request list's latency column.
    await api('/ext/usage', 'ak_demo_globex_admin', { headers: { 'X-Sandbox-Scenario': 'latency' } });
    // A naive client, for the audit: retries before the rate-limit reset, retries a bad key, posts without a content type.
    sandbox.accounts.update('acc_initech', { limits: { rpm: 2 } });
    for (let i = 0; i < 4; i++) await api('/ext/agents', 'ak_demo_initech_admin');
    for (let i = 0; i < 2; i++) await api('/ext/agents', 'ak_demo_nobody_0000');
    await api('/ext/tasks', 'ak_demo_globex_backend', {
      method: 'POST',
      headers: { 'Content-Type': '' },
      body: JSON.stringify({ agent_id: agents[0].id, description: 'No content type' }),
    });
    expect(sandbox.audit().map((f) => f.rule)).toEqual(
      expect.arrayContaining(['retry-before-reset', 'repeated-invalid-key', 'missing-content-type']),
    );
    sandbox.clock.advance('10s');
    await sandbox.webhooks.flush();
    browser = await launchChromium();
    page = await browser.newPage({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    await page.goto(`${server.url}/__sandbox/`);
    await page.locator('#live.on').waitFor({ timeout: 5000 });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('opens a request: method, path, status, the decision trace (or its absence), copy as curl with the key masked', async () => {
    const row = page.locator('#requests tbody tr', { hasText: '/api/v1/ext/agents/agt_nope' });
    await row.click();
    const detail = page.locator('#detail');
    await expect.poll(() => detail.isVisible()).toBe(true);
    const text = await detail.innerText();
    expect(text).toContain('GET /api/v1/ext/agents/agt_nope');
    expect(text).toMatch(/status\s+404/);
    expect(text).toMatch(/decision trace\s+(no trace recorded|#)/i);
    expect(await page.locator('#curl').innerText()).toContain('curl -i -X GET');
    expect(await page.locator('#curl').innerText()).not.toContain('ak_demo_globex_admin');
    expect(await page.locator('#live').getAttribute('class')).toBe('paused');
    await page.keyboard.press('Escape');
    await expect.poll(() => detail.isVisible()).toBe(false);
  });

  it('opens a request from the keyboard', async () => {
    await page.locator('#requests tbody tr').first().focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#detail').isVisible()).toBe(true);
    await page.locator('#detail-close').click();
  });

  it('filters requests by status, key, account and path', async () => {
    await page.locator('#f-status').selectOption('403');
    await expect.poll(() => page.locator('#requests tbody tr').count()).toBe(3);
    expect(await page.locator('#requests tbody').innerText()).not.toContain('201');
    await page.locator('#f-status').selectOption('');
    await page.locator('#f-account').selectOption('acc_globex');
    await page.locator('#f-path').fill('agt_nope');
    await expect.poll(() => page.locator('#requests tbody tr').count()).toBe(1);
    await page.locator('#f-account').selectOption('');
    await page.locator('#f-key').selectOption('key_acme_admin');
    await page.locator('#f-path').fill('');
    await expect.poll(() => page.locator('#requests tbody tr').count()).toBe(7);
    await page.locator('#f-key').selectOption('');
  });

  it('shows the audit findings per account, with severity, count, the fix and links to the first and last request', async () => {
    await expect.poll(() => page.locator('#audit tbody tr').count()).toBe(sandbox.audit().length);
    const initech = page.locator('#audit tbody tr[data-account="acc_initech"]');
    expect(await initech.first().innerText()).toMatch(
      /acc_initech\s+error\s+retry-before-reset\s+\d+\s+After a 429, wait/,
    );
    expect(await page.locator('#audit tbody tr[data-account=""]').first().innerText()).toMatch(
      /^no key \(per client\)\s+warning\s+repeated-invalid-key/,
    );
    expect(await initech.first().locator('button[data-request]').count()).toBe(2);
  });

  it('lists endpoints and deliveries, replays a delivery and sends a test event', async () => {
    const before = sandbox.webhooks.deliveries().length;
    expect(before).toBeGreaterThanOrEqual(6);
    await expect.poll(() => page.locator('#endpoints tbody tr').count()).toBe(1);
    await expect.poll(() => page.locator('#deliveries tbody tr').count()).toBe(before);
    const first = sandbox.webhooks.deliveries()[0]!;
    await page.locator(`#deliveries tr[data-delivery="${first.id}"]`).click();
    await expect.poll(() => page.locator('#payload').innerText()).toContain(first.eventId);
    expect(await page.locator('#attempts tbody').innerText()).toMatch(/200|ms/);
    await page.locator('#detail-replay').click();
    await expect.poll(() => sandbox.webhooks.deliveries().length).toBe(before + 1);
    const replay = sandbox.webhooks.deliveries().at(-1)!;
    expect(replay.replayOf).toBe(first.id);
    expect(received.filter((id) => id === first.eventId)).toHaveLength(2);
    await expect.poll(() => page.locator('#detail-title').innerText()).toContain(replay.id);
    await page.locator('#detail-close').click();
    await page.locator('button[data-test]').first().click();
    await expect.poll(() => sandbox.webhooks.deliveries().length).toBe(before + 2);
    await expect.poll(() => page.locator('#deliveries tbody tr').count()).toBe(before + 2);
  });

  it('draws the four charts from the sandbox clock', async () => {
    await page.locator('#panel-charts').scrollIntoViewIfNeeded();
    for (const id of ['chart-requests', 'chart-rate', 'chart-money', 'chart-tasks']) {
      await expect.poll(() => page.locator(`#${id} canvas`).count()).toBe(1);
    }
    expect(await page.locator('#chart-rate').innerText()).toContain('acc_acme');
    expect(await page.locator('#chart-money').innerText()).toContain('acc_acme balance');
  });

  it('keeps hostile values as text', async () => {
    await page.locator('#requests tbody tr', { hasText: 'agt_nope' }).click();
    expect(await page.locator('#detail img, #requests img, #tasks b[onmouseover]').count()).toBe(0);
    await page.locator('#detail-close').click();
  });

  for (const size of SIZES) {
    it(`fits ${size.width}×${size.height}: nothing overflows sideways; a screenshot of each panel`, async () => {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.evaluate(() => window.dispatchEvent(new Event('resize')));
      await page.waitForTimeout(400); // the charts redraw after a resize pause; no sandbox time involved
      const overflow = await page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        const out: string[] = [];
        if (document.documentElement.scrollWidth > width)
          out.push(`page ${document.documentElement.scrollWidth} > ${width}`);
        for (const e of document.querySelectorAll('body *')) {
          if (e.closest('.scroll, dialog')) continue;
          const r = e.getBoundingClientRect();
          if (r.width > 0 && r.right > width + 0.5)
            out.push(`${e.tagName.toLowerCase()}#${e.id}.${e.className} right ${Math.round(r.right)}`);
        }
        return out.slice(0, 10);
      });
      expect(overflow).toEqual([]);
      for (const panel of PANELS) {
        const file = join(SHOTS, `${panel}-${size.name}.png`);
        const section = page.locator(`#panel-${panel}`);
        await section.scrollIntoViewIfNeeded();
        await section.screenshot({ path: file });
        expect(statSync(file).size).toBeGreaterThan(2_000);
      }
      // The detail of a request with its trace: nothing leaves the dialog sideways (tables and bodies scroll inside it).
      await page.locator('#requests tbody tr', { hasText: 'agt_nope' }).click();
      await page.locator('#trace tbody tr').first().waitFor();
      const inDialog = await page.evaluate(() => {
        const dialog = document.querySelector('dialog')!;
        const box = dialog.getBoundingClientRect();
        const out: string[] = [];
        if (box.right > document.documentElement.clientWidth + 0.5 || box.left < -0.5)
          out.push(`dialog ${Math.round(box.left)}–${Math.round(box.right)}`);
        if (dialog.scrollWidth > dialog.clientWidth)
          out.push(`dialog scrolls sideways: ${dialog.scrollWidth} > ${dialog.clientWidth}`);
        for (const e of dialog.querySelectorAll('*')) {
          if (e.parentElement?.closest('.scroll, pre')) continue;
          const r = e.getBoundingClientRect();
          if (r.width > 0 && r.right > box.right + 0.5)
            out.push(
              `${e.tagName.toLowerCase()}#${e.id}.${e.className} right ${Math.round(r.right)} > ${Math.round(box.right)}`,
            );
        }
        return out.slice(0, 10);
      });
      expect(inDialog).toEqual([]);
      await page.locator('#detail').screenshot({ path: join(SHOTS, `detail-${size.name}.png`) });
      await page.locator('#detail-close').click();
    });
  }

  it('switches between light and dark', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await bg();
    await page.locator('#theme').click();
    expect(await bg()).not.toBe(light);
    await page.locator('#panel-requests').screenshot({ path: join(SHOTS, 'requests-dark.png') });
    await page.locator('#theme').click();
    expect(await bg()).toBe(light);
  });

  it('follows the system colour scheme until the theme button picks one', async () => {
    await page.evaluate(() => {
      localStorage.removeItem('aws-theme');
      delete document.documentElement.dataset.theme;
    });
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await bg()).toBe('rgb(15, 17, 21)');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await bg()).toBe('rgb(246, 247, 249)');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.locator('#theme').click();
    expect(await bg()).toBe('rgb(246, 247, 249)');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.evaluate(() => {
      localStorage.removeItem('aws-theme');
      delete document.documentElement.dataset.theme;
    });
  });
});
