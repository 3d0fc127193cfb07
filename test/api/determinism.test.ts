/** CONTRACT §5: same seed, same fixtures, same requests, manual clock → byte-identical responses; `reset()` is exact. */
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { inProcess, keyOf, overSocket, viaFetch, type Answer, type Door } from '../support/doors.js';

const opened: Door[] = [];
async function socket(seed: number): Promise<Door> {
  const door = await overSocket({ seed, clock: 'manual' });
  opened.push(door);
  return door;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((d) => d.close()));
});

/** Every page of the catalog, as the server sent the bytes. */
async function catalogBytes(door: Door): Promise<string[]> {
  const key = keyOf(door.sandbox);
  const pages: string[] = [];
  let cursor: string | null = null;
  do {
    const res: Answer = await door.call('GET', `/ext/agents?limit=7${cursor ? `&cursor=${cursor}` : ''}`, { key });
    pages.push(res.text);
    cursor = res.json.next_cursor;
  } while (cursor);
  pages.push((await door.call('GET', '/ext/agents', { key })).text);
  return pages;
}

/** A fixed session of requests and clock moves; each answer as status, headers (but Date) and body. */
async function session(door: Door): Promise<string[]> {
  const { sandbox } = door;
  const admin = keyOf(sandbox);
  const [agent, other] = sandbox.snapshot().agents.map((a) => a.id);
  const out: string[] = [];
  const call = async (method: string, path: string, key?: string, body?: unknown) => {
    const res = await door.call(method, path, { key, body });
    const headers = [...res.headers]
      .filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name))
      .map(([n, v]) => `${n}: ${v}`)
      .sort();
    out.push(`${method} ${path} → ${res.status}\n${headers.join('\n')}\n${res.text}`);
    return res;
  };
  await call('GET', '/ext/agents', admin);
  await call('GET', `/ext/agents/${other}`, keyOf(sandbox, 'read:agents'));
  const t1 = (
    await call('POST', '/ext/tasks', keyOf(sandbox, 'write:tasks'), {
      agent_id: agent,
      description: 'Translate the release notes into French.',
    })
  ).json.id;
  const t2 = (
    await call('POST', '/ext/tasks', admin, {
      agent_id: other,
      description: 'Review this SQL query for injection risks.',
      priority: 'urgent',
    })
  ).json.id;
  await call('GET', `/ext/tasks/${t1}`, admin);
  sandbox.clock.advance('2s');
  await call('GET', `/ext/tasks/${t1}`, keyOf(sandbox, 'read:tasks'));
  sandbox.clock.advance('30s');
  await call('GET', `/ext/tasks/${t1}`, admin);
  await call('GET', `/ext/tasks/${t2}`, admin);
  await call('GET', '/ext/usage', keyOf(sandbox, 'read:usage'));
  await call('POST', '/ext/tasks', admin, { agent_id: agent, description: '' });
  await call('GET', '/ext/nothing', admin);
  await call('GET', '/ext/agents');
  await call('GET', '/ext/usage', keyOf(sandbox, 'read:agents'));
  const free = keyOf(sandbox, 'admin', 'acc_free');
  for (let i = 0; i < 11; i++) await call('GET', '/ext/usage', free);
  sandbox.clock.advance('45s');
  await call('GET', '/ext/usage', free);
  return out;
}

describe('the catalog', () => {
  it('same seed → byte-identical GET /ext/agents bodies from two servers', async () => {
    const [a, b] = await Promise.all([socket(7), socket(7)]);
    const pagesA = await catalogBytes(a);
    expect(pagesA.length).toBeGreaterThan(2);
    expect(await catalogBytes(b)).toEqual(pagesA);
  });

  it('another seed → a different catalog, and different keys', async () => {
    const [a, b] = await Promise.all([socket(7), socket(8)]);
    const idsA = JSON.parse((await catalogBytes(a)).at(-1)!).data.map((x: { id: string }) => x.id);
    const idsB = JSON.parse((await catalogBytes(b)).at(-1)!).data.map((x: { id: string }) => x.id);
    expect(idsA.filter((id: string) => idsB.includes(id))).toEqual([]);
    expect(keyOf(a.sandbox)).not.toBe(keyOf(b.sandbox));
  });

  it('is the same bytes in-process and over the socket', async () => {
    const door = inProcess({ seed: 7, clock: 'manual' });
    const inside = await catalogBytes(door);
    await door.close();
    expect(await catalogBytes(await socket(7))).toEqual(inside);
  });

  it("after restore() of another seed's state, lists that state's catalog", async () => {
    const a = await socket(7);
    const other = createSandbox({ seed: 8, clock: 'manual' });
    const before = await catalogBytes(a);
    a.sandbox.restore(other.snapshot());
    const after = await catalogBytes(a);
    expect(after).not.toEqual(before);
    expect(JSON.parse(after.at(-1)!).data[0].id).toBe(other.snapshot().agents[0]!.id);
    a.sandbox.reset();
    expect(await catalogBytes(a)).toEqual(before);
  });
});

describe('reset() and sessions', () => {
  it('reset() returns to the initial snapshot exactly', async () => {
    const door = await socket(3);
    const { sandbox } = door;
    const initial = JSON.stringify(sandbox.snapshot());
    await session(door);
    sandbox.keys.revoke(keyOf(sandbox, 'read:usage'));
    sandbox.keys.create({ accountId: 'acc_starter', scopes: ['read:agents'] });
    sandbox.accounts.create({ plan: 'free' });
    sandbox.accounts.update('acc_enterprise', { plan: 'starter', balanceUsd: 1, limits: { rpm: 5 } });
    sandbox.useScenario('rate-limited');
    sandbox.clock.advance('40d');
    expect(JSON.stringify(sandbox.snapshot())).not.toBe(initial);

    sandbox.reset();
    expect(JSON.stringify(sandbox.snapshot())).toBe(initial);
    expect(sandbox.requests).toEqual([]);
    expect((await door.call('GET', '/ext/usage', { key: keyOf(sandbox, 'read:usage') })).status).toBe(200);
  });

  it('a session after reset() answers byte for byte as the first one', async () => {
    const door = await socket(3);
    const first = await session(door);
    door.sandbox.reset();
    expect(await session(door)).toEqual(first);
  });

  it('same seed + same requests + manual clock → byte-identical responses from two servers (headers but Date)', async () => {
    const [a, b] = await Promise.all([socket(11), socket(11)]);
    const answers = await session(a);
    expect(answers.some((t) => t.includes('→ 429'))).toBe(true);
    expect(answers.some((t) => t.includes('"status":"completed"'))).toBe(true);
    expect(await session(b)).toEqual(answers);
  });

  it('sandbox.fetch answers the whole session byte for byte as the msw door (headers but Date)', async () => {
    const msw = inProcess({ seed: 11, clock: 'manual' });
    const answers = await session(msw);
    await msw.close();
    expect(answers.some((t) => t.includes('"status":"completed"'))).toBe(true);
    expect(await session(viaFetch({ seed: 11, clock: 'manual' }))).toEqual(answers);
  });

  it('another seed gives other task ids and keys in the same session', async () => {
    const [a, b] = await Promise.all([socket(11), socket(12)]);
    expect(await session(b)).not.toEqual(await session(a));
  });
});
