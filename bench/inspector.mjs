#!/usr/bin/env node
/**
 * What one poll of the inspector costs the server: CPU time per `GET /__sandbox/inspector/live` of the built CLI (real
 * clock) with a full journal (1,000 entries), unchanged (304) and changed at every poll (200, with the charts). The
 * request rate with the page open is `npm run bench -- --browser` (bench/cases/browser-open.mjs).
 *
 *   node bench/inspector.mjs
 *
 * Needs `dist/` (npx tsup).
 */
import { sampleAnswers } from './fixtures.mjs';
import { cpuMsOf, fmt, start, table } from './lib.mjs';

const { key } = sampleAnswers();

const server = await start(process.execPath, ['dist/cli.js', '--port', '0', '--quiet'], {
  ready: (l) => l.startsWith('http'),
});
const base = server.line.trim();
const origin = new URL(base).origin;
const headers = { authorization: `Bearer ${key}` };
try {
  // A full journal: the live read lists, filters and charts the newest entries.
  for (let i = 0; i < 1000; i++) await fetch(`${base}/ext/agents?limit=1`, { headers });

  // CPU per poll, as the page polls (with If-None-Match), less the CPU of the API request made before each poll.
  const N = 200;
  const perPoll = async ({ changed, query = '', poll = true }) => {
    let tag = null;
    const before = cpuMsOf(server.child.pid);
    for (let i = 0; i < N; i++) {
      if (changed) await fetch(`${base}/ext/agents?limit=1`, { headers });
      if (!poll) continue;
      const res = await fetch(`${origin}/__sandbox/inspector/live${query}`, {
        headers: tag ? { 'if-none-match': tag } : {},
      });
      tag = res.headers.get('etag');
      await res.arrayBuffer();
    }
    return (cpuMsOf(server.child.pid) - before) / N;
  };
  const api = await perPoll({ changed: true, poll: false });
  // The floor: a trivial control read through the same express stack.
  const floorStart = cpuMsOf(server.child.pid);
  for (let i = 0; i < N; i++) await (await fetch(`${origin}/__sandbox/clock`)).arrayBuffer();
  const floor = (cpuMsOf(server.child.pid) - floorStart) / N;
  const unchanged = await perPoll({ changed: false });
  const changed = (await perPoll({ changed: true })) - api;
  const charts = (await perPoll({ changed: true, query: '?charts=1' })) - api;

  process.stdout.write(
    `${table(
      [
        'poll of /__sandbox/inspector/live (1,000 journal entries)',
        'server CPU per poll',
        'share of one core at 2 polls/s',
      ],
      [
        [
          '(reference: GET /__sandbox/clock, a trivial control read)',
          `${fmt.ms(floor)} ms`,
          `${((2 * floor) / 10).toFixed(2)} %`,
        ],
        ['unchanged: 304', `${fmt.ms(unchanged)} ms`, `${((2 * unchanged) / 10).toFixed(2)} %`],
        ['changed at every poll: 200', `${fmt.ms(changed)} ms`, `${((2 * changed) / 10).toFixed(2)} %`],
        ['changed at every poll, charts on screen: 200', `${fmt.ms(charts)} ms`, `${((2 * charts) / 10).toFixed(2)} %`],
      ],
    )}\n`,
  );
} finally {
  server.stop();
}
