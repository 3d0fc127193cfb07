/** Corpus: clients that retry (a task POST after a timeout or an error, a request after a 429 or a 503). */
import { TASK, type Client, type CorpusCase, type Sent } from './client.js';

const IDEMPOTENT = { 'Idempotency-Key': 'task-1' };
const slowAccount = (c: Client, ms = 200) => c.sandbox.useScenario('latency', { accountId: 'acc_pro', ms });
const post = (c: Client, options: Parameters<Client['send']>[2] = {}) =>
  c.send('POST', '/ext/tasks', { body: TASK, ...options });

/** A task POST while a scenario is in force on the account, then `next` (the client's retry, or not). */
const afterFault =
  (scenario: 'server-error' | 'network-error', next: (c: Client) => Promise<unknown>, first = {}): CorpusCase['run'] =>
  async (c) => {
    const undo = c.sandbox.useScenario(scenario, { accountId: 'acc_pro' });
    await post(c, first);
    undo();
    await next(c);
  };

/** Meets a 429 (at 2 requests a minute), waits as long as `ms` says, then reads again. */
const waitAfter429 =
  (ms: (c: Client, refused: Sent) => number): CorpusCase['run'] =>
  async (c) => {
    c.sandbox.accounts.update('acc_pro', { limits: { rpm: 2 } });
    await c.send('GET', '/ext/usage');
    await c.send('GET', '/ext/usage');
    const refused = await c.send('GET', '/ext/usage');
    c.wait(ms(c, refused));
    await c.send('GET', '/ext/usage');
  };

/** Gives up on a slow POST once the sandbox has it, then POSTs the same body again, without an Idempotency-Key. */
const retryAfterTimeout: CorpusCase['run'] = async (c) => {
  slowAccount(c);
  await post(c, { abortOnceReceived: true });
  await post(c);
};

export const RETRIES: CorpusCase[] = [
  {
    name: 'retries a task POST after giving up on a slow answer (msw handlers)',
    kind: 'naive',
    door: 'in-process',
    expect: ['unsafe-post-retry'],
    run: retryAfterTimeout,
  },
  {
    name: 'retries a task POST after giving up on a slow answer (sandbox.fetch)',
    kind: 'naive',
    expect: ['unsafe-post-retry'],
    run: retryAfterTimeout,
  },
  {
    name: 'retries a task POST after giving up on a slow answer (the server)',
    kind: 'naive',
    door: 'socket',
    expect: ['unsafe-post-retry'],
    run: retryAfterTimeout,
  },
  {
    name: 'retries a task POST after a 1 ms timeout, the latency asked by header',
    kind: 'naive',
    expect: ['unsafe-post-retry'],
    async run(c) {
      await post(c, { timeoutMs: 1, headers: { 'X-Sandbox-Scenario': 'latency' } });
      await post(c);
    },
  },
  {
    name: 'POSTs the same task again after the slow answer arrived, then a third time',
    kind: 'naive',
    expect: ['unsafe-post-retry'],
    async run(c) {
      slowAccount(c, 20);
      await post(c);
      await post(c);
      await post(c);
    },
  },
  {
    name: 'retries a task POST after a 500',
    kind: 'naive',
    expect: ['unsafe-post-retry'],
    run: afterFault('server-error', (c) => post(c)),
  },
  {
    name: 'retries a task POST after a failed connection',
    kind: 'naive',
    expect: ['unsafe-post-retry'],
    run: afterFault('network-error', (c) => post(c)),
  },
  {
    name: 'sends an Idempotency-Key and reuses it on the retry after a timeout (the fix)',
    kind: 'careful',
    expect: [],
    async run(c) {
      slowAccount(c);
      const key = crypto.randomUUID();
      await post(c, { abortOnceReceived: true, headers: { 'Idempotency-Key': key } });
      await post(c, { headers: { 'Idempotency-Key': key } });
      await post(c, {
        body: { ...TASK, description: 'Another task.' },
        headers: { 'Idempotency-Key': crypto.randomUUID() },
      });
    },
  },
  {
    name: 'sends an Idempotency-Key and reuses it on the retry after a 500',
    kind: 'careful',
    expect: [],
    run: afterFault('server-error', (c) => post(c, { headers: IDEMPOTENT }), { headers: IDEMPOTENT }),
  },
  {
    name: 'creates the same task twice on purpose, both answered at once',
    kind: 'edge',
    expect: [],
    async run(c) {
      await post(c);
      await post(c);
    },
  },
  {
    name: 'POSTs the same body again an hour after a 500',
    kind: 'edge',
    expect: [],
    run: afterFault('server-error', (c) => {
      c.wait(60 * 60_000);
      return post(c);
    }),
  },
  {
    name: 'after a 500, creates another task (not a retry)',
    kind: 'edge',
    expect: [],
    run: afterFault('server-error', (c) => post(c, { body: { ...TASK, description: 'Something else.' } })),
  },
  {
    name: 'retries at once after a 429',
    kind: 'naive',
    expect: ['retry-before-reset'],
    async run(c) {
      c.sandbox.accounts.update('acc_pro', { limits: { rpm: 1 } });
      await c.send('GET', '/ext/usage');
      await c.send('GET', '/ext/usage');
      await c.send('GET', '/ext/usage');
    },
  },
  {
    name: 'waits until X-RateLimit-Reset after a 429 (the fix)',
    kind: 'careful',
    expect: [],
    run: waitAfter429((c, refused) => Date.parse(refused.headers.get('x-ratelimit-reset')!) - c.sandbox.clock.now()),
  },
  {
    name: 'waits the Retry-After seconds after a 429 (the fix, its other half)',
    kind: 'careful',
    expect: [],
    run: waitAfter429((_c, refused) => Number(refused.headers.get('retry-after')) * 1000),
  },
  {
    name: 'after a 429 on tokens, keeps reading (only task creation waits)',
    kind: 'edge',
    expect: [],
    async run(c) {
      c.sandbox.accounts.update('acc_pro', { limits: { tpm: 100 } });
      await post(c);
      await c.send('GET', '/ext/usage');
      await c.send('GET', '/ext/agents');
    },
  },
  {
    name: 'retries before the Retry-After of a 503',
    kind: 'naive',
    expect: ['retry-after-503-ignored'],
    async run(c) {
      c.sandbox.useScenario('unavailable', { accountId: 'acc_pro' });
      await c.send('GET', '/ext/usage');
      c.wait(1000);
      await c.send('GET', '/ext/usage');
    },
  },
  {
    name: 'waits the Retry-After seconds of a 503, backing off exponentially (the fix)',
    kind: 'careful',
    expect: [],
    async run(c) {
      const undo = c.sandbox.useScenario('unavailable', { accountId: 'acc_pro' });
      let answer = await c.send('GET', '/ext/usage');
      for (let attempt = 0; answer.status === 503 && attempt < 3; attempt++) {
        c.wait(Number(answer.headers.get('retry-after')) * 1000 * 2 ** attempt);
        if (attempt === 1) undo();
        answer = await c.send('GET', '/ext/usage');
      }
    },
  },
];
