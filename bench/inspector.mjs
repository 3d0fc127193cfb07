#!/usr/bin/env node
/**
 * What serving the inspector costs the API: the built CLI under load (`GET /ext/agents`, autocannon) in alternating
 * rounds without and with headless Chromium open on `/__sandbox/` (charts on screen, polling every 500 ms), and the
 * server's CPU time per poll of `/__sandbox/inspector/live` with a full journal (1,000 entries).
 *
 *   node bench/inspector.mjs [--seconds 3] [--rounds 3] [--connections 10]
 *
 * Needs `dist/` (npx tsup) and the browser of the test suite (@sparticuz/chromium).
 */
import { parseArgs } from 'node:util';
import sparticuz from '@sparticuz/chromium';
import { chromium } from 'playwright-core';
import { sampleAnswers } from './fixtures.mjs';
import { cpuMsOf, fmt, load, median, start, table } from './lib.mjs';

const { values: args } = parseArgs({ options: { seconds: { type: 'string', default: '3' }, rounds: { type: 'string', default: '3' }, connections: { type: 'string', default: '10' } } });
const seconds = Number(args.seconds);
const rounds = Number(args.rounds);
const connections = Number(args.connections);
const { key } = sampleAnswers();

const server = await start(process.execPath, ['dist/cli.js', '--port', '0', '--quiet'], { ready: (l) => l.startsWith('http') });
const base = server.line.trim();
const origin = new URL(base).origin;
const headers = { authorization: `Bearer ${key}` };
try {
  // A full journal: the live read lists, filters and charts the newest entries.
  for (let i = 0; i < 1000; i++) await fetch(`${base}/ext/agents?limit=1`, { headers });

  // CPU per poll, as the page polls: with If-None-Match (mostly 304) and a changed answer each time (200).
  const perPoll = async (changed) => {
    let tag = null;
    const before = cpuMsOf(server.child.pid);
    for (let i = 0; i < 100; i++) {
      if (changed) await fetch(`${base}/ext/agents?limit=1`, { headers });
      const res = await fetch(`${origin}/__sandbox/inspector/live?charts=1`, { headers: tag ? { 'if-none-match': tag } : {} });
      tag = res.headers.get('etag');
      await res.arrayBuffer();
    }
    return (cpuMsOf(server.child.pid) - before) / 100;
  };
  const unchanged = await perPoll(false);
  const changed = await perPoll(true);

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || (await sparticuz.executablePath()), headless: true, args: [...sparticuz.args, '--no-sandbox', '--disable-gpu'] });
  const rps = { without: [], with: [] };
  try {
    // One page (this Chromium runs as a single process: closing its last page ends it), blank between rounds.
    const page = await browser.newPage({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    for (let r = 0; r < rounds; r++) {
      await page.goto('about:blank');
      rps.without.push((await load({ url: `${base}/ext/agents`, headers, connections, seconds })).rps);
      await page.goto(`${origin}/__sandbox/#panel-charts`);
      await page.locator('#live.on').waitFor({ timeout: 10_000 });
      rps.with.push((await load({ url: `${base}/ext/agents`, headers, connections, seconds })).rps);
    }
  } finally {
    await browser.close();
  }
  const a = median(rps.without);
  const b = median(rps.with);
  process.stdout.write(`${table(['', 'value'], [
    ['GET /ext/agents req/s, no browser (median)', fmt.int(a)],
    ['GET /ext/agents req/s, inspector open (median)', fmt.int(b)],
    ['ratio', fmt.ratio(b / a)],
    ['server CPU per poll, unchanged (304)', `${fmt.ms(unchanged)} ms`],
    ['server CPU per poll, changed (200, charts)', `${fmt.ms(changed)} ms`],
    ['server CPU share at 2 polls/s, changed every poll', `${((2 * changed) / 10).toFixed(2)} %`],
  ])}\n`);
} finally {
  server.stop();
}
