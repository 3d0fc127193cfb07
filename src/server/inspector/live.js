// Live data: one read polled with ETags, paused while a detail is open. What is drawn from it is connected by the
// page's entry (`connect`), so this module imports no panel.
import { auth, token } from './api.js';
import { $, setClass, setText, showError } from './dom.js';

const POLL_MS = 500;
/** Under steady traffic (three changed answers in a row) the page polls and redraws every 2 s instead. */
const BUSY_POLL_MS = 2000;

let changedInARow = 0;
let last = null;
let etag = null;
let liveKey = '';
let timer;
let receivedAt = 0;
const hooks = { render: () => {}, afterPoll: async () => {} };

/** What the read asks for beyond the filters: the charts' series while the charts are on screen. */
export const view = { charts: false };

/** The last answer read (null before the first). */
export const current = () => last;

/** `render(answer)` draws a changed answer; `afterPoll(changed)` runs after every read (the audit). */
export function connect(render, afterPoll) {
  hooks.render = render;
  hooks.afterPoll = afterPoll;
}

function liveQuery() {
  const q = new URLSearchParams();
  for (const [id, name] of [
    ['f-status', 'status'],
    ['f-key', 'key_id'],
    ['f-account', 'account_id'],
    ['f-path', 'path'],
  ]) {
    const v = $(id).value.trim();
    if (v) q.set(name, v);
  }
  if (view.charts) q.set('charts', '1');
  if (token) q.set('token', token);
  return '/__sandbox/inspector/live?' + q;
}

/** Reads the live data (now, with `force`, even while a detail is open), draws what changed, and polls on. */
export async function refresh(force) {
  clearTimeout(timer);
  if ($('detail').open && !force) {
    setClass($('live'), 'paused');
    timer = setTimeout(refresh, POLL_MS);
    return;
  }
  let wait = POLL_MS;
  try {
    const url = liveQuery();
    if (url !== liveKey) {
      etag = null;
      liveKey = url;
    }
    const res = await fetch(url, { headers: { ...auth, ...(etag ? { 'If-None-Match': etag } : {}) } });
    let fresh = false;
    if (res.status !== 304) {
      if (!res.ok) {
        const e = await res.json().catch(() => null);
        throw new Error(e && e.error ? e.error.message : 'HTTP ' + res.status);
      }
      last = await res.json();
      etag = res.headers.get('etag');
      receivedAt = Date.now();
      hooks.render(last);
      if (!force && ++changedInARow >= 3) wait = BUSY_POLL_MS;
      fresh = true;
    } else changedInARow = 0;
    showClock();
    await hooks.afterPoll(fresh || force);
    setClass($('live'), 'on');
  } catch (e) {
    setClass($('live'), 'off');
    showError('Cannot reach the sandbox: ' + e.message);
  }
  timer = setTimeout(refresh, wait);
}

/** The sandbox clock: a manual one as the sandbox gave it; a real one moves on here (a 304 does not carry it). */
function showClock() {
  if (!last) return;
  const now =
    last.clock === 'manual'
      ? last.now
      : new Date(Date.parse(last.now) + (Date.now() - receivedAt)).toISOString().slice(0, 19) + 'Z';
  setText($('clock'), now.replace('T', ' ').replace('.000Z', 'Z') + ' · ' + last.clock);
}

/** A control action: runs it, shows its error (or clears the last one), then reads the live data again. */
export function act(fn) {
  return async () => {
    try {
      await fn();
      showError(null);
    } catch (e) {
      showError(e.message);
    }
    refresh(true);
  };
}
