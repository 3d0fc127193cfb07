// The panels drawn from the live data: scenarios in force, requests, tasks, accounts, keys, agents. A panel whose
// data has not changed is not rebuilt.
import { control } from './api.js';
import { $, changed, el, fillSelect, latency, statusCell, table, tags, time, usd } from './dom.js';
import { openRequest } from './detail.js';
import { act } from './live.js';

function renderScenarios(o) {
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
}

function renderRequests(o) {
  $('request-count').textContent = o.requests.length + ' shown of ' + o.request_count + ' · newest first';
  if (!changed('requests', o.requests)) return;
  table(
    'requests',
    ['id', 'time', 'method', 'path', 'status', 'code', 'account', 'key', 'latency', 'scenarios'],
    o.requests.map((r) => ({
      attrs: { 'data-seq': r.seq, 'data-id': r.id },
      mono: [r.id, r.path, r.key_id],
      wrap: [r.path],
      open: () => openRequest(r.id || String(r.seq)),
      cells: [
        r.id,
        time(r.time),
        r.method,
        r.path,
        statusCell(r.status),
        r.code,
        r.account_id,
        r.key_id,
        latency(r.latency_ms),
        r.scenarios.join(', ') || '',
      ],
    })),
    'No requests yet. Point a client at the base URL.',
  );
}

function renderTasks(o) {
  $('task-count').textContent =
    o.task_count > o.tasks.length ? o.tasks.length + ' of ' + o.task_count : String(o.task_count);
  if (!changed('tasks', o.tasks)) return;
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
}

function renderAccounts(o) {
  if (!changed('accounts', o.accounts)) return;
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
}

function renderKeys(o) {
  if (!changed('keys', o.keys)) return;
  table(
    'keys',
    ['label', 'key', 'account', 'scopes', ''],
    o.keys.map((k) => ({
      attrs: { class: k.revoked ? 'revoked' : undefined, 'data-key': k.id },
      mono: [k.key],
      cells: [
        k.label,
        k.key,
        k.account_id,
        tags(k.scopes),
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
}

function renderAgents(o) {
  $('agent-count').textContent = String(o.agents.length);
  if (!changed('agents', o.agents)) return;
  table(
    'agents',
    ['id', 'name', 'model', 'status', 'capabilities'],
    o.agents.map((a) => ({ mono: [a.id], cells: [a.id, a.name, a.model, a.status, tags(a.capabilities)] })),
    'The catalog is empty.',
  );
}

export function renderPanels(o) {
  renderScenarios(o);
  renderRequests(o);
  renderTasks(o);
  renderAccounts(o);
  renderKeys(o);
  renderAgents(o);
}
