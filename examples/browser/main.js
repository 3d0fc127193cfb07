// The browser example: the sandbox's handlers in MSW's service worker, called with fetch from the page.
// Built by build.mjs (esbuild) into public/main.js; public/mockServiceWorker.js comes from `npx msw init`.
import { setupWorker } from 'msw/browser';
import { createSandbox } from 'agent-work-sandbox';

const API = '/api/v1';
const sandbox = createSandbox({ clock: 'manual' });
const admin = sandbox.keys.list('acc_demo').find((k) => k.label === 'admin').key;
const results = [];

async function call(label, path, { key = admin, method = 'GET', body, headers = {} } = {}) {
  let row;
  try {
    const res = await fetch(API + path, {
      method,
      headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = await res.json();
    row = {
      label,
      status: res.status,
      code: json.error?.code ?? null,
      json,
      remaining: res.headers.get('X-RateLimit-Remaining'),
      retryAfter: res.headers.get('Retry-After'),
    };
  } catch (error) {
    row = { label, status: 0, code: 'network_error', error: `${error.name}: ${error.message}` };
  }
  results.push(row);
  const tr = document.createElement('tr');
  tr.innerHTML = `<td>${label}</td><td class="${row.status >= 200 && row.status < 300 ? 'ok' : 'bad'}">${row.status || 'network error'} ${row.code ?? ''}</td>`;
  document.getElementById('rows').append(tr);
  return row;
}

async function demo() {
  await setupWorker(...sandbox.handlers).start({
    serviceWorker: { url: './mockServiceWorker.js' },
    onUnhandledRequest: 'bypass',
    quiet: true,
  });
  document.getElementById('status').textContent = 'Worker started. Calling the API…';
  const agents = await call('GET /ext/agents', '/ext/agents?limit=5');
  const created = await call('POST /ext/tasks', '/ext/tasks', {
    method: 'POST',
    body: { agent_id: agents.json.data[0].id, description: 'Summarise this page.' },
  });
  sandbox.clock.advance('10m');
  await call('GET /ext/tasks/:id after 10 minutes', `/ext/tasks/${created.json.id}`);
  await call('GET /ext/usage', '/ext/usage');
  await call('magic key ak_magic_rate_limited', '/ext/agents', { key: 'ak_magic_rate_limited' });
  await call('X-Sandbox-Scenario: unavailable', '/ext/agents', { headers: { 'X-Sandbox-Scenario': 'unavailable' } });
  const undo = sandbox.useScenario('out-of-credits');
  await call('useScenario("out-of-credits"), POST /ext/tasks', '/ext/tasks', {
    method: 'POST',
    body: { agent_id: agents.json.data[0].id, description: 'More.' },
  });
  undo();
  sandbox.useScenario('network-error');
  await call('useScenario("network-error")', '/ext/agents');
  sandbox.reset();
  await call('after reset()', '/ext/agents?limit=1');
  document.getElementById('status').textContent = 'Done.';
  window.__results = results;
}

demo().catch((error) => {
  document.getElementById('status').textContent = `Failed: ${error.message}`;
  window.__results = { error: String(error) };
});
