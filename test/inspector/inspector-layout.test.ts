/**
 * The inspector's layout at 1280×800 and 390×844, in light and dark: no table cell is cut (every table fits the width
 * of its card, on a phone by reading each row as a card), the decision trace reads on a phone without a nested
 * scroller (the failing step is on the page, not hidden in an inner box), and the Replay and Send test event buttons
 * are on screen without scrolling sideways. A delivery's detail shows the headers it sent and the webhook scenario that
 * spoiled it (none for a delivery no scenario touched).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/index.js';
import type { RunningServer } from '../../src/sandbox-types.js';
import { launchChromium } from '../support/browser.js';

const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];
const CASES = SIZES.flatMap((size) => (['light', 'dark'] as const).map((scheme) => [size, scheme] as const));

/** Cells whose right edge passes the visible width of their table's container (what a reader sees as a cut column). */
function cutCells(root: string): string[] {
  const out: string[] = [];
  for (const table of document.querySelectorAll(`${root} table`)) {
    const box = (table.parentElement as HTMLElement).getBoundingClientRect();
    for (const cell of table.querySelectorAll('td, th')) {
      const r = cell.getBoundingClientRect();
      if (r.width === 0 || getComputedStyle(cell).display === 'none') continue;
      if (r.right > box.right + 0.5 || r.right > document.documentElement.clientWidth + 0.5)
        out.push(
          `#${table.id} ${cell.tagName} "${(cell.textContent ?? '').slice(0, 24)}" ${Math.round(r.right)} > ${Math.round(box.right)}`,
        );
    }
  }
  return out.slice(0, 8);
}

describe.skipIf(process.env.SKIP_BROWSER_TESTS === '1')('the inspector layout (headless Chromium)', () => {
  let browser: Browser;
  let sandbox: Sandbox;
  let server: RunningServer;
  const api = (path: string, key: string, init: RequestInit = {}) =>
    fetch(`${server.url}/api/v1${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...init.headers },
    });

  beforeAll(async () => {
    sandbox = createSandbox({ fixtures: 'marketplace', clock: 'manual', now: '2026-11-22T09:30:00Z' });
    sandbox.webhooks.add({ accountId: 'acc_acme', callback: () => undefined });
    server = await sandbox.listen({ port: 0 });
    const agents = (await (await api('/ext/agents?limit=2', 'ak_demo_acme_admin')).json()).data;
    for (let i = 0; i < 3; i++) {
      sandbox.clock.advance('2s');
      await api('/ext/tasks', 'ak_demo_acme_admin', {
        method: 'POST',
        body: JSON.stringify({ agent_id: agents[i % 2].id, description: `Task ${i}`, priority: 'high' }),
      });
    }
    await api('/ext/agents/agt_nope', 'ak_demo_globex_admin');
    // A latency column with a value in it (the scenario's default 500 ms, real time).
    await api('/ext/usage', 'ak_demo_acme_admin', { headers: { 'X-Sandbox-Scenario': 'latency' } });
    sandbox.clock.advance('10s');
    await sandbox.webhooks.flush();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(size: { width: number; height: number }, scheme: 'light' | 'dark'): Promise<Page> {
    const page = await browser.newPage({ locale: 'en-US', viewport: size, colorScheme: scheme });
    await page.goto(`${server.url}/__sandbox/`);
    await page.locator('#deliveries tbody tr[data-delivery]').first().waitFor({ timeout: 10_000 });
    await page.locator('#keys tbody tr').first().waitFor({ timeout: 10_000 });
    return page;
  }

  it.each(CASES)(
    'at %o in %s: no table cell is cut in any card',
    async (size, scheme) => {
      const page = await open(size, scheme);
      try {
        expect(await page.evaluate(cutCells, 'main')).toEqual([]);
      } finally {
        await page.close();
      }
    },
    60_000,
  );

  it.each(CASES)(
    'at %o in %s: Replay and Send test event are on screen',
    async (size, scheme) => {
      const page = await open(size, scheme);
      try {
        for (const button of ['button[data-replay]', 'button[data-test]']) {
          const box = await page.locator(button).first().boundingBox();
          expect(box, button).not.toBeNull();
          expect(box!.x, button).toBeGreaterThanOrEqual(0);
          expect(box!.x + box!.width, button).toBeLessThanOrEqual(size.width);
        }
      } finally {
        await page.close();
      }
    },
    60_000,
  );

  it.each(CASES)(
    'at %o in %s: the trace reads without a nested scroller, no step cut',
    async (size, scheme) => {
      const page = await open(size, scheme);
      try {
        await page.locator('#requests tbody tr', { hasText: 'agt_nope' }).click();
        await page.locator('#trace tbody tr').first().waitFor();
        const inner = await page.evaluate(() => {
          const out: string[] = [];
          for (
            let e = document.querySelector('#trace')!.parentElement;
            e && e.tagName !== 'DIALOG';
            e = e.parentElement
          ) {
            const style = getComputedStyle(e);
            if (/auto|scroll/.test(style.overflowY) && e.scrollHeight > e.clientHeight)
              out.push(`${e.tagName.toLowerCase()}.${e.className} ${e.scrollHeight} > ${e.clientHeight}`);
          }
          return out;
        });
        expect(inner).toEqual([]);
        expect(await page.evaluate(cutCells, 'dialog')).toEqual([]);
        const failed = page.locator('#trace tr.failed-step');
        if ((await failed.count()) > 0) {
          await failed.first().scrollIntoViewIfNeeded();
          expect(await failed.first().isVisible()).toBe(true);
        }
      } finally {
        await page.close();
      }
    },
    60_000,
  );

  /** Opens the first delivery, the live data rewritten by `edit` on its way to the page. */
  async function openDelivery(edit: (delivery: Record<string, unknown>) => void): Promise<Page> {
    const page = await browser.newPage({ locale: 'en-US', viewport: SIZES[1] });
    await page.route('**/__sandbox/inspector/live?*', async (route) => {
      const res = await route.fetch({ headers: { ...route.request().headers(), 'if-none-match': '' } });
      const body = (await res.json()) as { deliveries: Record<string, unknown>[] };
      for (const d of body.deliveries) edit(d);
      await route.fulfill({ response: res, json: body });
    });
    await page.goto(`${server.url}/__sandbox/`);
    await page.locator('#deliveries tbody tr[data-delivery]').first().click();
    await page.locator('#payload').waitFor({ timeout: 10_000 });
    return page;
  }

  it('a delivery shows the headers it sent, the secret masked, and the scenario that spoiled it', async () => {
    const page = await openDelivery((d) => {
      const attempts = d.attempts as Record<string, unknown>[];
      attempts.at(-1)!.headers = {
        'webhook-id': 'evt_1',
        'webhook-signature': 'v1,c2lnbmF0dXJl',
        'x-leak': 'whsec_c2VjcmV0c2VjcmV0',
      };
      d.scenario = 'webhook-bad-signature';
    });
    try {
      const text = await page.locator('#detail').innerText();
      expect(await page.locator('#delivery-headers').innerText()).toContain('webhook-signature: v1,c2lnbmF0dXJl');
      expect(text).not.toContain('whsec_c2Vj');
      expect(text).toMatch(/scenario\s+webhook-bad-signature/);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('a delivery whose record keeps no headers nor scenario shows neither', async () => {
    const page = await openDelivery((d) => {
      for (const a of d.attempts as Record<string, unknown>[]) delete a.headers;
      delete d.headers;
      delete d.scenario;
    });
    try {
      expect(await page.locator('#delivery-headers').count()).toBe(0);
      expect(await page.locator('#detail').innerText()).not.toMatch(/scenario\s/);
    } finally {
      await page.close();
    }
  }, 60_000);
  it('a delivery sent under a webhook scenario names it in its detail; one sent under none names no scenario', async () => {
    const plain = sandbox.webhooks.deliveries()[0]!;
    const undo = sandbox.useScenario('webhook-stale-timestamp', { accountId: 'acc_acme' });
    const [spoiled] = await sandbox.webhooks.test({ accountId: 'acc_acme' });
    undo();
    expect([plain.scenario, spoiled!.scenario]).toEqual([null, 'webhook-stale-timestamp']);
    const page = await browser.newPage({ locale: 'en-US', viewport: SIZES[0] });
    const detailOf = async (id: string) => {
      await page.locator(`#deliveries tbody tr[data-delivery="${id}"]`).click();
      await expect.poll(() => page.locator('#detail-title').innerText()).toContain(id);
      const text = await page.locator('#detail .facts').innerText();
      await page.locator('#detail-close').click();
      return text;
    };
    try {
      await page.goto(`${server.url}/__sandbox/`);
      expect(await detailOf(spoiled!.id)).toMatch(/scenario\s+webhook-stale-timestamp/);
      expect(await detailOf(plain.id)).not.toMatch(/scenario|null/);
    } finally {
      await page.close();
    }
  }, 60_000);
});
