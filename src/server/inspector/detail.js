// The detail dialog: one request (its decision trace, headers, bodies, a curl) or one webhook delivery.
import { control } from './api.js';
import { $, el, latency, showError, statusCell, table } from './dom.js';
import { current, refresh } from './live.js';

function fact(pairs) {
  return el(
    'dl',
    { class: 'facts' },
    pairs.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]),
  );
}
function pretty(body) {
  if (body === undefined || body === null || body === '') return '(empty)';
  if (typeof body === 'string') {
    try {
      return JSON.stringify(JSON.parse(body), null, 2);
    } catch {
      return body;
    }
  }
  return JSON.stringify(body, null, 2);
}
function headerText(headers) {
  if (!headers) return '(none)';
  const pairs = Array.isArray(headers) ? headers : Object.entries(headers);
  return pairs.map(([k, v]) => k + ': ' + (Array.isArray(v) ? v.join(', ') : v)).join('\n') || '(none)';
}
/** A step's figures as `name value` pairs (a value may be a number, a string, true/false or null). */
function figures(f) {
  if (!f) return '';
  return el(
    'span',
    { class: 'tags' },
    Object.entries(f).flatMap(([k, v]) => [
      el('span', { class: 'fig' }, el('i', {}, k), ' ', v === null ? 'none' : String(v)),
      ' ',
    ]),
  );
}
function openDetail(title, nodes) {
  $('detail-title').textContent = title;
  $('detail-body').replaceChildren(...nodes);
  const d = $('detail');
  if (!d.open) d.showModal();
  $('live').className = 'paused';
}

export function requestLink(id) {
  if (!id) return '';
  return el('button', { type: 'button', class: 'mono', 'data-request': id, onclick: () => openRequest(id) }, id);
}

/** The steps in the order they were decided: the failed one (the last before `answer`) stands out. */
function traceNodes(r) {
  if (!Array.isArray(r.trace) || r.trace.length === 0)
    return [el('p', { class: 'mute' }, 'No trace recorded for this request.')];
  const t = el('table', { id: 'trace' });
  queueMicrotask(() =>
    table(
      'trace',
      ['#', 'step', 'outcome', 'detail', 'figures'],
      r.trace.map((s, i) => ({
        attrs: {
          'data-step': s.step,
          'data-outcome': s.outcome,
          class: s.outcome === 'fail' && s.step !== 'answer' ? 'failed-step' : undefined,
        },
        cells: [
          i + 1,
          s.step,
          el('b', { class: 'o-' + s.outcome }, s.outcome),
          el('span', { class: 'tags' }, s.detail || ''),
          figures(s.figures),
        ],
      })),
      '',
    ),
  );
  return [el('div', { class: 'scroll' }, t)];
}

/** A request's or a response's headers and body (`id` prefix `req` or `res`). */
const messageParts = (name, id, m) => [
  el('h3', {}, name + ' headers'),
  el('pre', { id: id + '-headers' }, headerText(m.headers)),
  el('h3', {}, name + ' body'),
  el('pre', { id: id + '-body' }, pretty(m.body)),
];

function messageNodes(r) {
  return [
    ...(r.request ? messageParts('Request', 'req', r.request) : []),
    ...(r.response ? messageParts('Response', 'res', r.response) : []),
  ];
}

function curlNodes(r) {
  const withKey = el('input', { type: 'checkbox', id: 'curl-key' });
  const curlText = el('pre', { id: 'curl' }, curl(r, null));
  // The live data holds key prefixes only: the whole key is read from GET /__sandbox/keys when asked for.
  withKey.onchange = async () => {
    const own =
      withKey.checked && r.key_id ? (await control('GET', '/keys')).data.find((k) => k.id === r.key_id) : null;
    curlText.textContent = curl(r, withKey.checked && own ? own.key : null);
  };
  return [
    el('h3', {}, 'Copy as curl'),
    el(
      'div',
      { class: 'row' },
      el(
        'button',
        {
          type: 'button',
          id: 'copy-curl',
          onclick: () => navigator.clipboard && navigator.clipboard.writeText(curlText.textContent).catch(() => null),
        },
        'Copy',
      ),
      ...(r.key_id ? [el('label', {}, withKey, ' with my key (' + r.key_id + ')')] : []),
    ),
    curlText,
  ];
}

export async function openRequest(ref) {
  let r;
  try {
    r = await control('GET', '/inspector/requests/' + encodeURIComponent(ref));
  } catch (e) {
    return showError(e.message);
  }
  const facts = fact([
    ['method', r.method],
    ['path', r.path],
    ['status', statusCell(r.status)],
    ['code', r.code],
    ['time', r.time],
    ['key', r.key_id],
    ['account', r.account_id],
    ['scenarios', r.scenarios.join(', ') || 'none'],
    ['latency', latency(r.latency_ms)],
    ...(r.id ? [['id', r.id]] : []),
  ]);
  openDetail(r.method + ' ' + r.path, [
    facts,
    el('h3', {}, 'Decision trace'),
    ...traceNodes(r),
    ...messageNodes(r),
    ...curlNodes(r),
  ]);
}

const shq = (s) => "'" + String(s).replace(/'/g, "'\\''") + "'";
/** The request as a curl command; the key stays masked unless the user asked for the key they own. */
function curl(r, key) {
  const parts = ['curl -i -X ' + r.method];
  const headers =
    r.request && r.request.headers
      ? Array.isArray(r.request.headers)
        ? r.request.headers
        : Object.entries(r.request.headers)
      : [];
  let hasAuth = false;
  for (const [k, v] of headers) {
    if (/^(host|content-length|connection|accept-encoding)$/i.test(k)) continue;
    let value = Array.isArray(v) ? v.join(', ') : String(v);
    if (/^authorization$/i.test(k)) {
      hasAuth = true;
      if (key) value = 'Bearer ' + key;
    }
    parts.push('-H ' + shq(k + ': ' + value));
  }
  if (!hasAuth && r.key_id) parts.push('-H ' + shq('Authorization: Bearer ' + (key || '$KEY')));
  const body = r.request ? r.request.body : undefined;
  if (body !== undefined && body !== null && body !== '')
    parts.push('--data-raw ' + shq(typeof body === 'string' ? body : JSON.stringify(body)));
  parts.push(shq(location.origin + r.path));
  return parts.join(' \\\n  ');
}

function replayButton(d) {
  return el(
    'div',
    { class: 'row' },
    el(
      'button',
      {
        type: 'button',
        id: 'detail-replay',
        onclick: async () => {
          try {
            const next = await control('POST', '/webhooks/deliveries/' + encodeURIComponent(d.id) + '/replay');
            showError(null);
            await refresh(true);
            openDelivery(next.id);
          } catch (e) {
            showError(e.message);
          }
        },
      },
      'Replay this delivery',
    ),
  );
}

// Read defensively: an attempt carries the headers it sent (`headers`, or `request_headers` on a snake_case wire);
// a record of an older sandbox carries none, and then nothing is shown.
const sentHeaders = (x) => (x && (x.headers ?? x.request_headers)) || null;
/** The headers of the newest attempt that kept them (else the delivery's own), any `whsec_` secret masked. */
function deliveryHeaders(d) {
  const attempt = [...d.attempts].reverse().find((a) => sentHeaders(a));
  const headers = sentHeaders(attempt) || sentHeaders(d);
  if (!headers) return [];
  const masked = headerText(headers).replace(/whsec_[A-Za-z0-9+/=_-]*/g, 'whsec_…');
  return [el('h3', {}, 'Headers sent'), el('pre', { id: 'delivery-headers' }, masked)];
}
/** The scenario that spoiled the delivery, when the record names it (`scenario` or a list `scenarios`). */
function deliveryScenario(d) {
  const named = d.scenario ?? d.scenarios;
  const text = Array.isArray(named) ? named.join(', ') : named;
  return text ? [['scenario', text]] : [];
}

export function openDelivery(id) {
  const last = current();
  const d = last && last.deliveries.find((x) => x.id === id);
  if (!d) return;
  const t = el('table', { id: 'attempts' });
  queueMicrotask(() =>
    table(
      'attempts',
      ['#', 'at', 'status', 'latency', 'error', 'answer'],
      d.attempts.map((a, i) => ({
        cells: [
          i + 1 + (a.duplicate ? ' (copy)' : ''),
          a.at,
          a.status === null ? 'no answer' : statusCell(a.status),
          a.latency_ms + ' ms',
          a.error || '',
          el('span', { class: 'tags mono' }, a.response || ''),
        ],
      })),
      'No attempt yet.',
    ),
  );
  openDetail('Delivery ' + d.id, [
    fact([
      ['delivery', d.id],
      ['event', d.event_type + ' · ' + d.event_id],
      ['endpoint', d.endpoint_id],
      ['url', d.url === null ? '(callback)' : d.url],
      ['status', d.status],
      ['next attempt', d.next_attempt_at || 'none'],
      ['replay of', d.replay_of || '—'],
      ...deliveryScenario(d),
    ]),
    replayButton(d),
    el('h3', {}, 'Attempts'),
    el('div', { class: 'scroll' }, t),
    ...deliveryHeaders(d),
    el('h3', {}, 'Payload'),
    el('pre', { id: 'payload' }, JSON.stringify(d.event, null, 2)),
  ]);
}

/** The dialog's close button; a closed dialog reads the live data again. */
export function setUpDetail() {
  $('detail-close').onclick = () => $('detail').close();
  $('detail').addEventListener('close', () => refresh(true));
}
