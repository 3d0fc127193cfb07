/** The rate chart's series: the busiest accounts first, those at 100 % always, and how many are left out. */
import { describe, expect, it } from 'vitest';
import { timeline } from '../../src/server/inspector/timeline.js';

describe('the rate chart series', () => {
  it('shows the six busiest accounts, every account at 100 % beyond them, and counts the rest', () => {
    const now = Date.parse('2026-01-01T00:01:00Z');
    const at = new Date(now - 1000).toISOString();
    // acc_0 … acc_9: account i makes i + 1 requests; acc_0 and acc_1 have an RPM of 1 and 2 (at 100 %).
    const accounts = Array.from({ length: 10 }, (_, i) => ({
      id: `acc_${i}`,
      balance_usd: 1,
      held_usd: 0,
      limits: { rpm: i < 2 ? i + 1 : 100 },
    }));
    const requests = accounts.flatMap((a, i) =>
      Array.from({ length: i + 1 }, () => ({ time: at, status: 200, accountId: a.id })),
    );
    const t = timeline({ now, requests, tasks: [], accounts });
    expect(Object.keys(t.rate)).toEqual(['acc_0', 'acc_1', 'acc_9', 'acc_8', 'acc_7', 'acc_6']);
    expect(t.rate_hidden).toBe(4);
  });

  it('keeps an account at 100 % even when six busier ones fill the chart', () => {
    const now = Date.parse('2026-01-01T00:01:00Z');
    const at = new Date(now - 1000).toISOString();
    const accounts = Array.from({ length: 8 }, (_, i) => ({
      id: `acc_${i}`,
      balance_usd: 1,
      held_usd: 0,
      limits: { rpm: 1 },
    }));
    // Every account reaches 100 % (one request at an RPM of 1): none is hidden.
    const requests = accounts.map((a) => ({ time: at, status: 200, accountId: a.id }));
    const t = timeline({ now, requests, tasks: [], accounts });
    expect(Object.keys(t.rate)).toHaveLength(8);
    expect(t.rate_hidden).toBe(0);
  });
});
