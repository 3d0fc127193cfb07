// The inspector's script (served as a file: the page's policy allows no inline script). Every value from the sandbox
// goes into the page as text, never as HTML: paths, names and headers may come from any client.
'use strict';
(() => {
  const token = new URLSearchParams(location.search).get('token');
  const auth = token ? { 'X-Sandbox-Token': token } : {};
  const $ = (id) => document.getElementById(id);
  const SCENARIOS = JSON.parse($('scenario-catalog').textContent);
  const POLL_MS = 500;
  /** Under steady traffic (three changed answers in a row) the page polls and redraws every 2 s instead. */
  const BUSY_POLL_MS = 2000;
  let changedInARow = 0;

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (k === 'onclick') node.onclick = v;
      else if (k === 'onkeydown') node.onkeydown = v;
      else if (k === 'width') node.style.width = v;
      else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v);
    }
    for (const c of children.flat())
      node.append(c instanceof Node ? c : document.createTextNode(c === null || c === undefined ? '—' : String(c)));
    return node;
  }
  /** A table; a row with `open` is a button for the keyboard too (Enter or Space). */
  function table(id, columns, rows, empty) {
    const body =
      rows.length === 0
        ? [el('tr', {}, el('td', { class: 'empty', colspan: columns.length }, empty))]
        : rows.map((r) => {
            const attrs = { ...(r.attrs || {}) };
            if (r.open)
              Object.assign(attrs, {
                class: ((attrs.class || '') + ' pick').trim(),
                tabindex: '0',
                role: 'button',
                onclick: r.open,
                onkeydown: (e) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    r.open();
                  }
                },
              });
            return el(
              'tr',
              attrs,
              r.cells.map((c) =>
                c instanceof Node
                  ? el('td', { class: c.classList && c.classList.contains('tags') ? 'soft' : undefined }, c)
                  : el(
                      'td',
                      {
                        class:
                          [r.mono && r.mono.includes(c) ? 'mono' : '', r.wrap && r.wrap.includes(c) ? 'wrap' : '']
                            .join(' ')
                            .trim() || undefined,
                      },
                      c,
                    ),
              ),
            );
          });
    const focused =
      document.activeElement &&
      document.activeElement.closest &&
      document.activeElement.closest('#' + id + ' tr[tabindex]');
    const index = focused ? [...focused.parentNode.children].indexOf(focused) : -1;
    $(id).replaceChildren(
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          columns.map((c) => el('th', {}, c)),
        ),
      ),
      el('tbody', {}, body),
    );
    // A re-render keeps the keyboard where it was.
    if (index >= 0 && body[index] && body[index].tabIndex === 0) body[index].focus({ preventScroll: true });
  }
  const usd = (n) => '$' + n.toFixed(n < 1 && n > 0 ? 4 : 2);
  const time = (iso) => (iso ? iso.slice(11, 19) : null);
  const statusCell = (s) => el('b', { class: 's' + String(s)[0] }, s === 0 ? 'network error' : s);

  async function control(method, path, body) {
    const res = await fetch('/__sandbox' + path, {
      method,
      headers: { ...auth, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) {
      const e = await res.json().catch(() => null);
      const err = new Error(e && e.error ? e.error.code + ': ' + e.error.message : 'HTTP ' + res.status);
      err.status = res.status;
      throw err;
    }
    return res.status === 204 ? null : res.json();
  }
  function act(fn) {
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
  function showError(message) {
    $('error').style.display = message ? 'block' : 'none';
    $('error').textContent = message || '';
  }

  // ---- live data: one read polled with ETags, paused while a detail is open ----

  let last = null;
  let etag = null;
  let liveKey = '';
  let timer;
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
    if (chartsVisible) q.set('charts', '1');
    if (token) q.set('token', token);
    return '/__sandbox/inspector/live?' + q;
  }
  async function refresh(force) {
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
      if (res.status !== 304) {
        if (!res.ok) {
          const e = await res.json().catch(() => null);
          throw new Error(e && e.error ? e.error.message : 'HTTP ' + res.status);
        }
        last = await res.json();
        etag = res.headers.get('etag');
        receivedAt = Date.now();
        render(last);
        if (!force && ++changedInARow >= 3) wait = BUSY_POLL_MS;
        auditDue = true;
      } else changedInARow = 0;
      showClock();
      // The audit changes only with the requests: read again after a changed answer (at most every 2 s).
      if (force) auditDue = true;
      if (auditDue) await refreshAudit();
      setClass($('live'), 'on');
    } catch (e) {
      setClass($('live'), 'off');
      showError('Cannot reach the sandbox: ' + e.message);
    }
    timer = setTimeout(refresh, wait);
  }

  // ---- rendering ----

  const seen = {};
  /** Whether a part of the page has new data since it was drawn (unchanged parts are not rebuilt). */
  function changed(name, value) {
    const text = JSON.stringify(value);
    if (seen[name] === text) return false;
    seen[name] = text;
    return true;
  }

  // Unchanged text or class is not written again: a write makes the browser lay the page out anew.
  const setText = (node, text) => {
    if (node.textContent !== text) node.textContent = text;
  };
  const setClass = (node, name) => {
    if (node.className !== name) node.className = name;
  };
  let receivedAt = 0;
  /** The sandbox clock: a manual one as the sandbox gave it; a real one moves on here (an unchanged answer is a 304 and does not carry it). */
  function showClock() {
    if (!last) return;
    const now =
      last.clock === 'manual'
        ? last.now
        : new Date(Date.parse(last.now) + (Date.now() - receivedAt)).toISOString().slice(0, 19) + 'Z';
    setText($('clock'), now.replace('T', ' ').replace('.000Z', 'Z') + ' · ' + last.clock);
  }

  function render(o) {
    const onKeys = o.scenarios.filter((s) => s.key_id);
    $('scenarios').replaceChildren(
      ...o.scenarios
        .filter((s) => !s.key_id)
        .map((s) => el('span', { class: 'tag' }, s.name + (s.account_id ? ' @' + s.account_id : ''))),
      ...(onKeys.length
        ? [
            el(
              'span',
              { class: 'keyed', title: onKeys.map((s) => s.name + ' @' + s.key_id).join(', ') },
              onKeys.length + ' on keys',
            ),
          ]
        : []),
    );
    fillSelect(
      $('scope'),
      'whole sandbox',
      o.accounts.map((a) => a.id),
    );
    fillSelect(
      $('f-account'),
      'any',
      o.accounts.map((a) => a.id),
    );
    fillSelect(
      $('f-key'),
      'any',
      o.keys.map((k) => k.id),
    );
    $('request-count').textContent = o.requests.length + ' shown of ' + o.request_count + ' · newest first';
    if (changed('requests', o.requests))
      table(
        'requests',
        ['time', 'method', 'path', 'status', 'code', 'key', 'scenarios'],
        o.requests.map((r) => ({
          attrs: { 'data-seq': r.seq, 'data-id': r.id },
          mono: [r.path, r.keyId],
          wrap: [r.path],
          open: () => openRequest(r.id || String(r.seq)),
          cells: [time(r.time), r.method, r.path, statusCell(r.status), r.code, r.keyId, r.scenarios.join(', ') || ''],
        })),
        'No requests yet. Point a client at the base URL.',
      );
    $('task-count').textContent =
      o.task_count > o.tasks.length ? o.tasks.length + ' of ' + o.task_count : String(o.task_count);
    if (changed('tasks', o.tasks))
      table(
        'tasks',
        ['id', 'account', 'agent', 'status', 'priority', 'model', 'cost', 'created'],
        o.tasks.map((t) => ({
          mono: [t.id, t.agent_id],
          cells: [
            t.id,
            t.account_id,
            t.agent_id,
            el('b', { class: 'st-' + t.status }, t.status),
            t.priority,
            t.model,
            usd(t.usage.cost_usd),
            time(t.created_at),
          ],
        })),
        'No tasks yet.',
      );
    if (changed('accounts', o.accounts))
      table(
        'accounts',
        ['id', 'name', 'plan', 'balance', 'held', 'rate window', 'tokens', 'resets', 'requests'],
        o.accounts.map((a) => {
          const used = a.rate_window.requests;
          const bar = el(
            'span',
            { class: 'bar' },
            el('i', { width: Math.min(100, Math.round((100 * used) / a.limits.rpm)) + '%' }),
          );
          return {
            mono: [a.id],
            cells: [
              a.id,
              a.name,
              a.plan,
              usd(a.balance_usd),
              usd(a.held_usd),
              el('span', {}, bar, used + ' / ' + a.limits.rpm + ' rpm'),
              a.rate_window.tokens + ' / ' + a.limits.tpm,
              time(a.rate_window.reset),
              a.period_requests,
            ],
          };
        }),
        'No accounts.',
      );
    if (changed('keys', o.keys))
      table(
        'keys',
        ['label', 'key', 'account', 'scopes', ''],
        o.keys.map((k) => ({
          attrs: { class: k.revoked ? 'revoked' : undefined },
          mono: [k.key],
          cells: [
            k.label,
            k.key,
            k.account_id,
            el(
              'span',
              { class: 'tags' },
              k.scopes.map((s) => el('span', { class: 'tag' }, s)),
            ),
            k.revoked
              ? 'revoked'
              : el(
                  'button',
                  {
                    type: 'button',
                    class: 'danger',
                    'data-revoke': k.id,
                    onclick: act(() => control('DELETE', '/keys/' + encodeURIComponent(k.id))),
                  },
                  'Revoke',
                ),
          ],
        })),
        'No keys.',
      );
    $('agent-count').textContent = String(o.agents.length);
    if (changed('agents', o.agents))
      table(
        'agents',
        ['id', 'name', 'model', 'status', 'capabilities'],
        o.agents.map((a) => ({
          mono: [a.id],
          cells: [
            a.id,
            a.name,
            a.model,
            a.status,
            el(
              'span',
              { class: 'tags' },
              a.capabilities.map((c) => el('span', { class: 'tag' }, c)),
            ),
          ],
        })),
        'The catalog is empty.',
      );
    if (changed('webhooks', [o.webhooks, o.deliveries])) renderWebhooks(o);
    if (o.timeline) {
      lastTimeline = o.timeline;
      // The charts redraw at most every 2 s: under load the data changes at every poll.
      const draw = () => {
        chartsAt = Date.now();
        renderCharts(lastTimeline);
      };
      clearTimeout(chartsTimer);
      const wait = 2000 - (Date.now() - chartsAt);
      if (wait <= 0) draw();
      else chartsTimer = setTimeout(draw, wait);
    }
  }
  function fillSelect(select, none, values) {
    const want = [none, ...values].join('\n');
    if (select.dataset.values === want) return;
    const chosen = select.value;
    select.replaceChildren(el('option', { value: '' }, none), ...values.map((v) => el('option', { value: v }, v)));
    select.dataset.values = want;
    select.value = values.includes(chosen) ? chosen : '';
  }

  function renderWebhooks(o) {
    $('webhook-count').textContent = o.webhooks.length + ' endpoints · ' + o.deliveries.length + ' deliveries';
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
    table(
      'deliveries',
      ['created', 'event', 'account', 'status', 'attempts', 'last code', 'latency', ''],
      o.deliveries.map((d) => {
        const a = d.attempts[d.attempts.length - 1];
        return {
          attrs: { 'data-delivery': d.id },
          open: () => openDelivery(d.id),
          cells: [
            time(d.createdAt),
            d.eventType,
            d.accountId,
            el('b', { class: 'st-' + d.status }, d.status + (d.replayOf ? ' (replay)' : '')),
            d.attempts.length,
            a ? (a.status === null ? a.error || 'no answer' : a.status) : '',
            a ? a.latencyMs + ' ms' : '',
            el(
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
            ),
          ],
        };
      }),
      'No deliveries yet.',
    );
  }

  // ---- the audit (GET /__sandbox/audit, when the sandbox has it) ----

  let auditAt = 0;
  let auditMissing = false;
  let auditDue = true;
  async function refreshAudit() {
    const now = Date.now();
    if (now - auditAt < (auditMissing ? 10000 : 2000)) return;
    auditAt = now;
    auditDue = false;
    let findings;
    try {
      findings = (await control('GET', '/audit')).data;
      auditMissing = false;
    } catch (e) {
      auditMissing = true;
      auditDue = true;
      delete seen.audit;
      $('audit-note').textContent = '';
      table(
        'audit',
        ['audit'],
        [],
        e.status === 404 ? 'No audit: this sandbox does not serve GET /__sandbox/audit.' : 'No audit: ' + e.message,
      );
      return;
    }
    if (!changed('audit', findings)) return;
    $('audit-note').textContent = findings.length + ' findings';
    // Per account (the audit's order within one: errors first); requests without a valid key are per client, no account.
    const accounts = [...new Set(findings.map((f) => f.account_id))];
    const grouped = accounts.flatMap((a) => findings.filter((f) => f.account_id === a));
    table(
      'audit',
      ['account', 'severity', 'rule', 'count', 'fix', 'first', 'last'],
      grouped.map((f, i) => ({
        attrs: {
          'data-rule': f.rule,
          'data-account': f.account_id || '',
          class: i > 0 && grouped[i - 1].account_id === f.account_id ? undefined : 'group-start',
        },
        wrap: [f.fix],
        cells: [
          f.account_id || 'no key (per client)',
          el('b', { class: 'sev-' + f.severity }, f.severity),
          f.rule,
          f.count,
          f.fix,
          requestLink(f.first_request_id),
          requestLink(f.last_request_id),
        ],
      })),
      'No findings: the integration follows the rules the audit checks.',
    );
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
  function requestLink(id) {
    if (!id) return '';
    return el('button', { type: 'button', class: 'mono', 'data-request': id, onclick: () => openRequest(id) }, id);
  }

  // ---- detail: one request, or one delivery ----

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
  function openDetail(title, nodes) {
    $('detail-title').textContent = title;
    $('detail-body').replaceChildren(...nodes);
    const d = $('detail');
    if (!d.open) d.showModal();
    $('live').className = 'paused';
  }
  async function openRequest(ref) {
    let r;
    try {
      r = await control('GET', '/inspector/requests/' + encodeURIComponent(ref));
    } catch (e) {
      return showError(e.message);
    }
    const nodes = [
      fact([
        ['method', r.method],
        ['path', r.path],
        ['status', statusCell(r.status)],
        ['code', r.code],
        ['time', r.time],
        ['key', r.keyId],
        ['account', r.accountId],
        ['scenarios', r.scenarios.join(', ') || 'none'],
        ...(r.id ? [['id', r.id]] : []),
      ]),
    ];
    nodes.push(el('h3', {}, 'Decision trace'));
    if (Array.isArray(r.trace) && r.trace.length > 0) {
      const t = el('table', { id: 'trace' });
      nodes.push(el('div', { class: 'scroll' }, t));
      // The steps in the order they were decided: the failed one (the last before `answer`) stands out.
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
    } else nodes.push(el('p', { class: 'mute' }, 'No trace recorded for this request.'));
    if (r.request)
      nodes.push(
        el('h3', {}, 'Request headers'),
        el('pre', { id: 'req-headers' }, headerText(r.request.headers)),
        el('h3', {}, 'Request body'),
        el('pre', { id: 'req-body' }, pretty(r.request.body)),
      );
    if (r.response)
      nodes.push(
        el('h3', {}, 'Response headers'),
        el('pre', { id: 'res-headers' }, headerText(r.response.headers)),
        el('h3', {}, 'Response body'),
        el('pre', { id: 'res-body' }, pretty(r.response.body)),
      );
    const own = last && last.keys.find((k) => k.id === r.keyId);
    const withKey = el('input', { type: 'checkbox', id: 'curl-key' });
    const curlText = el('pre', { id: 'curl' }, curl(r, null));
    withKey.onchange = () => {
      curlText.textContent = curl(r, withKey.checked && own ? own.key : null);
    };
    nodes.push(
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
        ...(own ? [el('label', {}, withKey, ' with my key (' + own.id + ')')] : []),
      ),
      curlText,
    );
    openDetail(r.method + ' ' + r.path, nodes);
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
    if (!hasAuth && r.keyId) parts.push('-H ' + shq('Authorization: Bearer ' + (key || '$KEY')));
    const body = r.request ? r.request.body : undefined;
    if (body !== undefined && body !== null && body !== '')
      parts.push('--data-raw ' + shq(typeof body === 'string' ? body : JSON.stringify(body)));
    parts.push(shq(location.origin + r.path));
    return parts.join(' \\\n  ');
  }
  function openDelivery(id) {
    const d = last && last.deliveries.find((x) => x.id === id);
    if (!d) return;
    const nodes = [
      fact([
        ['delivery', d.id],
        ['event', d.eventType + ' · ' + d.eventId],
        ['endpoint', d.endpointId],
        ['url', d.url === null ? '(callback)' : d.url],
        ['status', d.status],
        ['next attempt', d.nextAttemptAt || 'none'],
        ['replay of', d.replayOf || '—'],
      ]),
    ];
    nodes.push(
      el(
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
      ),
    );
    nodes.push(el('h3', {}, 'Attempts'));
    const t = el('table', { id: 'attempts' });
    nodes.push(el('div', { class: 'scroll' }, t));
    queueMicrotask(() =>
      table(
        'attempts',
        ['#', 'at', 'status', 'latency', 'error', 'answer'],
        d.attempts.map((a, i) => ({
          cells: [
            i + 1 + (a.duplicate ? ' (copy)' : ''),
            a.at,
            a.status === null ? 'no answer' : statusCell(a.status),
            a.latencyMs + ' ms',
            a.error || '',
            el('span', { class: 'tags mono' }, a.response || ''),
          ],
        })),
        'No attempt yet.',
      ),
    );
    nodes.push(el('h3', {}, 'Payload'), el('pre', { id: 'payload' }, JSON.stringify(d.event, null, 2)));
    openDetail('Delivery ' + d.id, nodes);
  }
  $('detail-close').onclick = () => $('detail').close();
  $('detail').addEventListener('close', () => refresh(true));

  // ---- charts (uPlot, bundled), drawn only while the panel is on screen ----

  let chartsVisible = false;
  let lastTimeline = null;
  let chartsAt = 0;
  let chartsTimer;
  const charts = {};
  const STATUS_COLORS = ['#2f9e44', '#f59f00', '#e8590c', '#e03131'];
  const TASK_COLORS = ['#868e96', '#1c7ed6', '#2f9e44', '#e03131'];
  const PALETTE = [
    '#2f9e44',
    '#f59f00',
    '#e8590c',
    '#e03131',
    '#1c7ed6',
    '#7048e8',
    '#0ca678',
    '#d6336c',
    '#495057',
    '#74b816',
    '#1098ad',
    '#ae3ec9',
  ];
  function chart(id, names, x, ys, colors = PALETTE) {
    const host = $(id);
    const width = Math.max(200, host.clientWidth);
    const key = names.join('|');
    const data = [x, ...ys];
    let c = charts[id];
    if (c && (c.key !== key || c.width !== width)) {
      c.plot.destroy();
      c = undefined;
    }
    if (!c) {
      if (typeof uPlot !== 'function') return;
      const series = [
        { value: (u, v) => (v === null ? '—' : new Date(v * 1000).toISOString().slice(11, 19)) },
        ...names.map((n, i) => ({ label: n, stroke: colors[i % colors.length], width: 1.5, points: { show: false } })),
      ];
      const axis = {
        stroke: 'currentColor',
        grid: { stroke: 'rgba(128,128,128,.2)' },
        ticks: { stroke: 'rgba(128,128,128,.3)' },
      };
      const plot = new uPlot(
        {
          width,
          height: 180,
          series,
          scales: { x: { time: true } },
          axes: [
            {
              ...axis,
              space: 90,
              values: (u, vals) => vals.map((v) => new Date(v * 1000).toISOString().slice(11, 19)),
            },
            axis,
          ],
          legend: { live: false },
        },
        data,
        host,
      );
      charts[id] = { plot, key, width };
    } else c.plot.setData(data);
  }
  function renderCharts(t) {
    chart(
      'chart-requests',
      ['2xx', '4xx', '429', '5xx'],
      t.x,
      [t.requests['2xx'], t.requests['4xx'], t.requests['429'], t.requests['5xx']],
      STATUS_COLORS,
    );
    const rate = Object.entries(t.rate);
    chart(
      'chart-rate',
      rate.length ? rate.map(([id]) => id) : ['no requests'],
      t.x,
      rate.length ? rate.map(([, v]) => v) : [t.x.map(() => 0)],
    );
    const money = Object.entries(t.money);
    chart(
      'chart-money',
      money.length ? money.flatMap(([id]) => [id + ' balance', id + ' held']) : ['no tasks'],
      t.x,
      money.length ? money.flatMap(([, m]) => [m.balance, m.held]) : [t.x.map(() => 0)],
    );
    chart(
      'chart-tasks',
      ['queued', 'running', 'completed', 'failed'],
      t.x,
      [t.tasks.queued, t.tasks.running, t.tasks.completed, t.tasks.failed],
      TASK_COLORS,
    );
  }
  new IntersectionObserver((entries) => {
    const visible = entries.some((e) => e.isIntersecting);
    if (visible !== chartsVisible) {
      chartsVisible = visible;
      if (visible) refresh(true);
    }
  }).observe($('panel-charts'));
  let resizeTimer;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => lastTimeline && renderCharts(lastTimeline), 150);
  });

  // ---- controls ----

  $('scenario').replaceChildren(...SCENARIOS.map((s) => el('option', { value: s.name, title: s.description }, s.name)));
  for (const b of document.querySelectorAll('[data-advance]'))
    b.onclick = act(() => control('POST', '/clock', { advance: b.dataset.advance }));
  $('advance-go').onclick = act(() => control('POST', '/clock', { advance: $('advance').value.trim() || '0' }));
  $('apply').onclick = act(() =>
    control('POST', '/scenarios', { name: $('scenario').value, account_id: $('scope').value || undefined }),
  );
  $('clear').onclick = act(() =>
    control(
      'DELETE',
      '/scenarios?' + ($('scope').value ? 'account_id=' + encodeURIComponent($('scope').value) : 'scope=sandbox'),
    ),
  );
  $('reset').onclick = act(() =>
    confirm('Reset the sandbox to its initial state?') ? control('POST', '/reset') : null,
  );
  $('filters').onsubmit = (e) => e.preventDefault();
  for (const id of ['f-status', 'f-key', 'f-account']) $(id).onchange = () => refresh(true);
  let typing;
  $('f-path').oninput = () => {
    clearTimeout(typing);
    typing = setTimeout(() => refresh(true), 250);
  };
  const theme = localStorage.getItem('aws-theme');
  if (theme) document.documentElement.dataset.theme = theme;
  $('theme').onclick = () => {
    const dark = document.documentElement.dataset.theme
      ? document.documentElement.dataset.theme === 'dark'
      : matchMedia('(prefers-color-scheme: dark)').matches;
    document.documentElement.dataset.theme = dark ? 'light' : 'dark';
    localStorage.setItem('aws-theme', document.documentElement.dataset.theme);
  };
  refresh(true);
})();
