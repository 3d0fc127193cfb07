// The inspector's script, the entry of its modules (served as files: the page's policy allows no inline script):
// it wires the live data to the panels and the header's controls to the control API.
import { control } from './api.js';
import { afterPoll } from './audit.js';
import { setUpCharts, showTimeline } from './charts.js';
import { openRequest, setUpDetail } from './detail.js';
import { $, changed, el } from './dom.js';
import { act, connect, refresh } from './live.js';
import { renderPanels } from './panels.js';
import { renderWebhooks } from './webhooks.js';

const SCENARIOS = JSON.parse($('scenario-catalog').textContent);

function render(o) {
  renderPanels(o);
  if (changed('webhooks', [o.webhooks, o.deliveries])) renderWebhooks(o);
  if (o.timeline) showTimeline(o.timeline);
}

function setUpControls() {
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
  // A request id from a client's logs (X-Sandbox-Request-Id): opens that request, wherever it sits in the list.
  $('f-id').onchange = () => {
    const id = $('f-id').value.trim();
    if (id) openRequest(id);
  };
  let typing;
  $('f-path').oninput = () => {
    clearTimeout(typing);
    typing = setTimeout(() => refresh(true), 250);
  };
}

function setUpTheme() {
  const theme = localStorage.getItem('aws-theme');
  if (theme) document.documentElement.dataset.theme = theme;
  $('theme').onclick = () => {
    const dark = document.documentElement.dataset.theme
      ? document.documentElement.dataset.theme === 'dark'
      : matchMedia('(prefers-color-scheme: dark)').matches;
    document.documentElement.dataset.theme = dark ? 'light' : 'dark';
    localStorage.setItem('aws-theme', document.documentElement.dataset.theme);
  };
}

connect(render, afterPoll);
setUpDetail();
setUpCharts();
setUpControls();
setUpTheme();
refresh(true);
