/**
 * What the two parallel test files share: each creates its own account on one CLI server (POST /__sandbox/accounts),
 * waits until the other file has too (so that their rounds overlap in time), then runs ROUNDS rounds of applying its
 * scenario to its account only, checking it, removing it, and checking that nothing of the other file leaked in.
 */
import { beforeAll, expect, it } from 'vitest';

const SERVER = process.env.SANDBOX_URL ?? '';
const RUN = process.env.RUN_ID ?? '0';
const ROUNDS = Number(process.env.ROUNDS ?? 20);
export const PARTIES = ['rate-limited', 'out-of-credits'];

export interface Mine {
  accountId: string;
  key: string;
  api(method: string, path: string, body?: unknown): Promise<{ status: number; headers: Headers; json: any }>;
}

async function request(method: string, url: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

export const control = (method: string, path: string, body?: unknown) =>
  request(method, `${SERVER}/__sandbox${path}`, {}, body);

export function isolatedRounds(
  scenario: string,
  checks: { on(me: Mine): Promise<void>; off(me: Mine): Promise<void> },
): void {
  if (!SERVER) throw new Error('SANDBOX_URL is not set: run these files through test/parallel.test.ts.');
  const me = {} as Mine;
  beforeAll(async () => {
    const made = await control('POST', '/accounts', { plan: 'pro', name: `parallel-${RUN}-${scenario}` });
    expect(made.status).toBe(201);
    me.accountId = made.json.id;
    me.key = made.json.key.key;
    me.api = (method, path, body) =>
      request(method, `${SERVER}/api/v1${path}`, { Authorization: `Bearer ${me.key}` }, body);
    // Rendezvous with the other file, so that the rounds run at the same time.
    const deadline = Date.now() + 15_000;
    for (;;) {
      const names = (await control('GET', '/accounts')).json.data.map((a: { name: string }) => a.name);
      if (PARTIES.every((p) => names.includes(`parallel-${RUN}-${p}`))) break;
      if (Date.now() > deadline) throw new Error('the other parallel file never created its account');
      await new Promise((r) => setTimeout(r, 10));
    }
  });

  for (let round = 1; round <= ROUNDS; round++) {
    it(`round ${round}: ${scenario} in my account only`, async () => {
      expect((await control('POST', '/scenarios', { name: scenario, account_id: me.accountId })).status).toBe(204);
      await checks.on(me);
      expect((await control('DELETE', `/scenarios?account_id=${me.accountId}`)).status).toBe(204);
      await checks.off(me);
      // The journal of my account holds my key only; my tasks are mine only.
      const journal = (await control('GET', `/requests?account_id=${me.accountId}`)).json.data as {
        keyId: string;
        scenarios: string[];
      }[];
      expect(journal.length).toBeGreaterThan(0);
      expect(journal.every((e) => e.keyId === journal[0]!.keyId && e.scenarios.every((s) => s === scenario))).toBe(
        true,
      );
      const tasks = (await control('GET', `/tasks?account_id=${me.accountId}`)).json.data as {
        id: string;
        agent_id: string;
      }[];
      if (tasks.length > 0) expect((await me.api('GET', `/ext/tasks/${tasks[tasks.length - 1]!.id}`)).status).toBe(200);
    });
  }
}

export async function firstAgent(me: Mine): Promise<string> {
  return (await me.api('GET', '/ext/agents?limit=1')).json.data[0].id;
}
