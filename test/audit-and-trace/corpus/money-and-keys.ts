/** Corpus: clients after a 402 and a 401, and how they send their key and bodies. */
import { ADMIN } from '../../tasks-and-billing/support.js';
import { CHEAP_TASK, estimateOf, KEY, TASK, type Client, type CorpusCase } from './client.js';

const post = (c: Client, body: unknown = TASK) => c.send('POST', '/ext/tasks', { body });
const BAD_KEY = 'ak_wrong_key_000000000000000000000';

/** Leaves room for one task of TASK's kind: a second one is refused 402 while the first holds its estimate. */
async function roomForOne(c: Client): Promise<void> {
  const probe = await post(c);
  const estimate = estimateOf(c, probe);
  c.wait(10 * 60_000); // the probe ends and is charged
  c.sandbox.accounts.update('acc_pro', { balanceUsd: estimate * 1.95 });
  await post(c);
}

export const MONEY_AND_KEYS: CorpusCase[] = [
  {
    name: 'creates the same task again and again after a 402',
    kind: 'naive',
    expect: ['ignored-402'],
    async run(c) {
      c.sandbox.accounts.update('acc_pro', { balanceUsd: 0.000001 });
      for (let i = 0; i < 3; i++) await post(c);
    },
  },
  {
    name: 'after a 402, creates a task that costs more',
    kind: 'naive',
    expect: ['ignored-402'],
    async run(c) {
      c.sandbox.accounts.update('acc_pro', { balanceUsd: 0.000001 });
      await post(c, CHEAP_TASK);
      await post(c);
    },
  },
  {
    name: 'after a 402, asks for a top-up and tries again (the fix)',
    kind: 'careful',
    expect: [],
    async run(c) {
      c.sandbox.accounts.update('acc_pro', { balanceUsd: 0.000001 });
      await post(c);
      c.sandbox.accounts.update('acc_pro', { balanceUsd: 10 });
      await post(c);
    },
  },
  {
    name: 'after a 402, waits for running tasks to release their holds, then tries again (the fix)',
    kind: 'careful',
    expect: [],
    async run(c) {
      await roomForOne(c);
      const refused = await post(c);
      if (refused.status !== 402) throw new Error(`expected a 402, got ${refused.status}`);
      c.wait(10 * 60_000); // the first task ends: its hold is released, less is charged
      const retried = await post(c);
      if (retried.status !== 201) throw new Error(`expected a 201, got ${retried.status}`);
    },
  },
  {
    name: 'after a 402 on an expensive task, creates a cheaper task that fits',
    kind: 'careful',
    expect: [],
    async run(c) {
      await roomForOne(c);
      await post(c);
      const cheap = await post(c, CHEAP_TASK);
      if (cheap.status !== 201) throw new Error(`expected a 201, got ${cheap.status}`);
    },
  },
  {
    name: 'after a 402, only reads (usage, its tasks)',
    kind: 'edge',
    expect: [],
    async run(c) {
      c.sandbox.accounts.update('acc_pro', { balanceUsd: 0.000001 });
      await post(c);
      await c.send('GET', '/ext/usage');
      await c.send('GET', '/ext/agents');
    },
  },
  {
    name: 'sends a key answered 401 again',
    kind: 'naive',
    expect: ['repeated-invalid-key'],
    async run(c) {
      await c.send('GET', '/ext/agents', { key: BAD_KEY });
      await c.send('GET', '/ext/agents', { key: BAD_KEY });
    },
  },
  {
    name: 'stops after a 401 and asks for a new key (the fix)',
    kind: 'careful',
    expect: [],
    async run(c) {
      await c.send('GET', '/ext/agents', { key: BAD_KEY });
      await c.send('GET', '/ext/agents', { key: KEY });
    },
  },
  {
    name: 'two different bad keys, once each',
    kind: 'edge',
    expect: [],
    async run(c) {
      await c.send('GET', '/ext/agents', { key: BAD_KEY });
      await c.send('GET', '/ext/agents', { key: 'ak_other_wrong_key_000000000000000' });
    },
  },
  {
    name: 'sends its key in the query string',
    kind: 'naive',
    expect: ['key-in-url'],
    async run(c) {
      await c.send('GET', `/ext/agents?api_key=${ADMIN.pro}`, { key: null });
    },
  },
  {
    name: 'sends its key in the path',
    kind: 'naive',
    expect: ['key-in-url'],
    async run(c) {
      await c.send('GET', `/ext/tasks/${ADMIN.pro}`);
    },
  },
  {
    name: 'sends the key only in the Authorization header (the fix)',
    kind: 'careful',
    expect: [],
    async run(c) {
      await c.send('GET', '/ext/agents?limit=2');
    },
  },
  {
    name: "a query parameter whose value is the word 'key'",
    kind: 'edge',
    expect: [],
    async run(c) {
      await c.send('GET', '/ext/agents?sort=key&monkey=1');
    },
  },
  {
    name: 'POSTs a JSON body as text/plain',
    kind: 'naive',
    expect: ['missing-content-type'],
    async run(c) {
      await c.send('POST', '/ext/tasks', { body: JSON.stringify(TASK), headers: { 'Content-Type': 'text/plain' } });
    },
  },
  {
    name: 'sends Content-Type: application/json with every body (the fix)',
    kind: 'careful',
    expect: [],
    async run(c) {
      await c.send('POST', '/ext/tasks', {
        body: JSON.stringify(TASK),
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
      });
      await c.send('GET', '/ext/usage');
    },
  },
];
