/**
 * The inspector on the merged data, in headless Chromium: a request's decision trace read step by step in its detail
 * (a 402 and a 429 on tokens per minute show the failing step with its figures), and the audit panel after a naive
 * client's traffic, whose links open the request that showed the finding. SKIP_BROWSER_TESTS=1 skips.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { createSandbox, type Sandbox } from '../../src/index.js';
import type { RunningServer } from '../../src/sandbox-types.js';

describe.skipIf(process.env.SKIP_BROWSER_TESTS === '1')(
  'the inspector reads the decision trace and the audit (headless Chromium)',
  () => {
    let browser: Browser;
    let sandbox: Sandbox;
    let server: RunningServer;
    let page: Page;
    let agentId: string;
    const api = (path: string, key: string, body?: unknown) =>
      fetch(`${server.url}/api/v1${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
    /** The trace table of the open detail: one [step, outcome, detail, figures] per row, in order. */
    const traceRows = () =>
      page
        .locator('#trace tbody tr')
        .evaluateAll((rows) =>
          rows.map((r) => [...r.querySelectorAll('td')].slice(1).map((td) => (td as HTMLElement).innerText.trim())),
        );
    const openRequest = async (id: string) => {
      await page.locator('#f-path').fill('');
      await page.locator(`#requests tbody tr[data-id="${id}"]`).click();
      await expect.poll(() => page.locator('#detail-body').innerText()).toContain(id);
      await page.locator('#trace tbody tr').first().waitFor();
    };
    const closeDetail = async () => {
      await page.locator('#detail-close').click();
      await expect.poll(() => page.locator('#detail').isVisible()).toBe(false);
    };

    beforeAll(async () => {
      sandbox = createSandbox({ fixtures: 'marketplace', clock: 'manual', now: '2026-11-22T09:30:00Z' });
      server = await sandbox.listen({ port: 0 });
      agentId = (await (await api('/ext/agents?limit=1', 'ak_demo_acme_admin')).json()).data[0].id;
      browser = await launchChromium();
      page = await browser.newPage({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
      await page.goto(`${server.url}/__sandbox/`);
      await page.locator('#live.on').waitFor({ timeout: 5000 });
    }, 60_000);
    afterEach(async () => {
      if (await page.locator('#detail').isVisible()) await closeDetail();
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it('shows a 402 step by step: the balance step fails with its figures, then the answer', async () => {
      const res = await api('/ext/tasks', 'ak_demo_drained_admin', {
        agent_id: agentId,
        description: 'Summarise the contract.',
      });
      expect(res.status).toBe(402);
      const id = sandbox.requests.at(-1)!.id;
      await openRequest(id);
      const rows = await traceRows();
      expect(rows.map(([step, outcome]) => `${step} ${outcome}`)).toEqual(
        sandbox.explain(id)!.map((s) => `${s.step} ${s.outcome}`),
      );
      expect(rows.map(([step]) => step)).toEqual([
        'key',
        'rate',
        'route',
        'scope',
        'body',
        'resource',
        'idempotency',
        'balance',
        'answer',
      ]);
      const balance = rows.find(([step]) => step === 'balance')!;
      expect(balance[1]).toBe('fail');
      expect(balance[2]).toMatch(/not enough credit/);
      expect(balance[3]).toMatch(/balance_usd 0(?![.\d])/);
      expect(balance[3]).toMatch(/spendable_usd 0(?![.\d])/);
      expect(balance[3]).toMatch(/estimated_cost_usd \d/);
      expect(rows.at(-1)!.slice(0, 2)).toEqual(['answer', 'fail']);
      expect(rows.at(-1)![3]).toMatch(/status 402\s+code insufficient_credits/);
      expect(await page.locator('#trace tr.failed-step').getAttribute('data-step')).toBe('balance');
      // The request as sent and the answer, keys masked.
      expect(await page.locator('#req-headers').innerText()).toMatch(
        /authorization: ak_demo…|authorization: Bearer ak_demo…/,
      );
      expect(await page.locator('#detail-body').innerText()).not.toContain('ak_demo_drained_admin');
      expect(await page.locator('#res-body').innerText()).toContain('insufficient_credits');
    });

    it('shows a 429 on tokens per minute: the tpm step fails with the limit, what was used and what the task needs', async () => {
      sandbox.accounts.update('acc_globex', { limits: { tpm: 500 } });
      const res = await api('/ext/tasks', 'ak_demo_globex_admin', {
        agent_id: agentId,
        description: 'Draft the launch plan.',
      });
      expect(res.status).toBe(429);
      const id = sandbox.requests.at(-1)!.id;
      await openRequest(id);
      const rows = await traceRows();
      const tpm = rows.find(([step]) => step === 'tpm')!;
      expect(tpm[1]).toBe('fail');
      expect(tpm[2]).toMatch(/of 500 tokens per minute remain: over the limit/);
      expect(tpm[3]).toMatch(/tpm 500\s+used 0\s+needed \d+\s+remaining 500/);
      expect(rows.at(-1)![3]).toMatch(/status 429\s+code rate_limit_exceeded/);
      expect(await page.locator('#trace tr.failed-step').getAttribute('data-step')).toBe('tpm');
      // Nothing after the failed step ran: it is the last before the answer.
      expect(rows.at(-2)![0]).toBe('tpm');
    });

    it('lists the audit findings per account after a naive client, and a link opens the request that showed one', async () => {
      // A naive client: rate-limited at 2 requests per minute, it retries at once instead of waiting for the reset.
      sandbox.accounts.update('acc_initech', { limits: { rpm: 2 } });
      for (let i = 0; i < 4; i++) await api('/ext/agents', 'ak_demo_initech_admin');
      sandbox.clock.advance('1s');
      expect((await api('/ext/agents', 'ak_demo_initech_admin')).status).toBe(429);
      const finding = sandbox.audit({ accountId: 'acc_initech' }).find((f) => f.rule === 'retry-before-reset')!;
      expect(finding).toMatchObject({ severity: 'error', account_id: 'acc_initech' });
      await page.locator('#panel-audit').scrollIntoViewIfNeeded();
      const row = page.locator('#audit tbody tr[data-rule="retry-before-reset"][data-account="acc_initech"]');
      await expect.poll(() => row.count(), { timeout: 5000 }).toBe(1);
      const cells = await row.locator('td').allInnerTexts();
      expect(cells.slice(0, 4)).toEqual(['acc_initech', 'error', 'retry-before-reset', String(finding.count)]);
      expect(cells[4]).toContain('wait until X-RateLimit-Reset');
      expect(cells.slice(5)).toEqual([finding.first_request_id, finding.last_request_id]);
      // Findings of one account are together, the severity order kept within it.
      const accounts = await page
        .locator('#audit tbody tr')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-account')));
      expect(accounts).toEqual([...accounts].sort((a, b) => accounts.indexOf(a) - accounts.indexOf(b)));
      await row.locator(`button[data-request="${finding.last_request_id}"]`).click();
      await expect.poll(() => page.locator('#detail-title').innerText()).toBe('GET /api/v1/ext/agents');
      expect(await page.locator('#detail-body').innerText()).toContain(finding.last_request_id);
      const rows = await traceRows();
      expect(rows.find(([step]) => step === 'rate')!.slice(0, 2)).toEqual(['rate', 'fail']);
      expect(rows.find(([step]) => step === 'rate')![3]).toMatch(/limit 2\s+used \d+\s+remaining 0/);
    });
  },
);
