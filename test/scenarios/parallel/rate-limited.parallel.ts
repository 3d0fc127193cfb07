/** Parallel file A: its account is rate limited in every round; the other file's account never is. */
import { expect } from 'vitest';
import { isolatedRounds } from './shared.js';

isolatedRounds('rate-limited', {
  async on(me) {
    const res = await me.api('GET', '/ext/usage');
    expect(res.status).toBe(429);
    expect(res.json.error.code).toBe('rate_limit_exceeded');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(res.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
  },
  async off(me) {
    const res = await me.api('GET', '/ext/usage');
    expect(res.status).toBe(200);
    expect(res.json.account_id).toBe(me.accountId);
  },
});
