/** Parallel file B: its account has no credits in every round (reads still work); it is never rate limited. */
import { expect } from 'vitest';
import { firstAgent, isolatedRounds } from './shared.js';

isolatedRounds('out-of-credits', {
  async on(me) {
    expect((await me.api('GET', '/ext/agents?limit=1')).status).toBe(200);
    const res = await me.api('POST', '/ext/tasks', { agent_id: await firstAgent(me), description: 'Parallel round.' });
    expect(res.status).toBe(402);
    expect(res.json.error.code).toBe('insufficient_credits');
  },
  async off(me) {
    const res = await me.api('POST', '/ext/tasks', { agent_id: await firstAgent(me), description: 'Parallel round.' });
    expect(res.status).toBe(201);
  },
});
