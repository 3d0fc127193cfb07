// The webhooks panel: endpoints (with a test event each) and the delivery journal (with a replay each).
import { control } from './api.js';
import { $, el, table, time } from './dom.js';
import { openDelivery } from './detail.js';
import { act } from './live.js';

function renderEndpoints(o) {
  table(
    'endpoints',
    ['account', 'endpoint', 'url', ''],
    o.webhooks.map((w) => ({
      mono: [w.id, w.url],
      wrap: [w.url],
      cells: [
        w.account_id,
        w.id,
        w.url === null ? '(callback)' : w.url,
        el(
          'button',
          {
            type: 'button',
            'data-test': w.id,
            onclick: act(() => control('POST', '/webhooks/test', { endpoint_id: w.id })),
          },
          'Send test event',
        ),
      ],
    })),
    'No endpoints. Pro and Enterprise accounts can add one (--webhook URL, POST /__sandbox/accounts/:id/webhooks).',
  );
}

function replayButton(d) {
  return el(
    'button',
    {
      type: 'button',
      'data-replay': d.id,
      onclick: (e) => {
        e.stopPropagation();
        act(() => control('POST', '/webhooks/deliveries/' + encodeURIComponent(d.id) + '/replay'))();
      },
    },
    'Replay',
  );
}

function renderDeliveries(o) {
  table(
    'deliveries',
    ['created', 'event', 'account', 'status', 'attempts', 'last code', 'latency', ''],
    o.deliveries.map((d) => {
      const a = d.attempts[d.attempts.length - 1];
      return {
        attrs: { 'data-delivery': d.id },
        open: () => openDelivery(d.id),
        cells: [
          time(d.created_at),
          d.event_type,
          d.account_id,
          el('b', { class: 'st-' + d.status }, d.status + (d.replay_of ? ' (replay)' : '')),
          d.attempts.length,
          a ? (a.status === null ? a.error || 'no answer' : a.status) : '',
          a ? a.latency_ms + ' ms' : '',
          replayButton(d),
        ],
      };
    }),
    'No deliveries yet.',
  );
}

export function renderWebhooks(o) {
  $('webhook-count').textContent = o.webhooks.length + ' endpoints · ' + o.deliveries.length + ' deliveries';
  renderEndpoints(o);
  renderDeliveries(o);
}
