/** Corpus: clients polling a task, and clients near their limits. */
import { TASK, type Client, type CorpusCase } from './client.js';

const newTask = async (c: Client): Promise<string> =>
  (await c.send('POST', '/ext/tasks', { body: TASK })).json.id as string;

export const POLLING_AND_LIMITS: CorpusCase[] = [
  {
    name: 'polls a task ten times a second',
    kind: 'naive',
    expect: ['polling-storm'],
    async run(c) {
      const id = await newTask(c);
      for (let i = 0; i < 10; i++) {
        await c.send('GET', `/ext/tasks/${id}`);
        c.wait(100);
      }
    },
  },
  {
    name: 'polls a task once a second (the fix)',
    kind: 'careful',
    expect: [],
    async run(c) {
      const id = await newTask(c);
      for (let i = 0; i < 8; i++) {
        await c.send('GET', `/ext/tasks/${id}`);
        c.wait(1000);
      }
    },
  },
  {
    name: 'polls a task, backing off while it stays queued or running (the fix)',
    kind: 'careful',
    expect: [],
    async run(c) {
      const id = await newTask(c);
      for (let wait = 1000, status = 'queued'; status === 'queued' || status === 'running'; wait *= 2) {
        status = (await c.send('GET', `/ext/tasks/${id}`)).json.status;
        c.wait(wait);
      }
    },
  },
  {
    name: 'polls two tasks in turn, each once a second',
    kind: 'edge',
    expect: [],
    async run(c) {
      const ids = [await newTask(c), await newTask(c)];
      for (let i = 0; i < 6; i++) {
        await c.send('GET', `/ext/tasks/${ids[i % 2]}`);
        c.wait(500);
      }
    },
  },
  {
    name: 'uses 80 % of its RPM minute after minute',
    kind: 'naive',
    expect: ['near-limit'],
    async run(c) {
      c.sandbox.accounts.update('acc_pro', { limits: { rpm: 5 } });
      for (let minute = 0; minute < 2; minute++) {
        for (let i = 0; i < 4; i++) await c.send('GET', '/ext/usage');
        c.wait(60_000);
      }
    },
  },
  {
    name: 'spreads its requests out, below 80 % of its RPM (the fix)',
    kind: 'careful',
    expect: [],
    async run(c) {
      c.sandbox.accounts.update('acc_pro', { limits: { rpm: 5 } });
      for (let minute = 0; minute < 3; minute++) {
        for (let i = 0; i < 3; i++) await c.send('GET', '/ext/usage');
        c.wait(60_000);
      }
    },
  },
];
