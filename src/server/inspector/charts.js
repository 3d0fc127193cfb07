// The charts (uPlot, bundled as the global `uPlot`), drawn only while their panel is on screen, at most every 2 s.
import { $ } from './dom.js';
import { refresh, view } from './live.js';

let lastTimeline = null;
let chartsAt = 0;
let chartsTimer;
let resizeTimer;
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
const clockTime = (v) => new Date(v * 1000).toISOString().slice(11, 19);

function newPlot(host, width, names, data, colors) {
  const series = [
    { value: (u, v) => (v === null ? '—' : clockTime(v)) },
    ...names.map((n, i) => ({ label: n, stroke: colors[i % colors.length], width: 1.5, points: { show: false } })),
  ];
  // A canvas knows no `currentColor`: the axes take the card's text colour, readable in light and dark.
  const axis = {
    stroke: getComputedStyle(host).color || '#888',
    grid: { stroke: 'rgba(128,128,128,.2)' },
    ticks: { stroke: 'rgba(128,128,128,.3)' },
  };
  const options = {
    width,
    height: 180,
    series,
    scales: { x: { time: true } },
    axes: [{ ...axis, space: 90, values: (u, vals) => vals.map(clockTime) }, axis],
    legend: { live: false },
  };
  return new uPlot(options, data, host);
}

function chart(id, names, x, ys, colors = PALETTE) {
  const host = $(id);
  const width = Math.max(200, host.clientWidth);
  // A theme switch changes the text colour: the chart is drawn anew with it.
  const key = names.join('|') + '|' + getComputedStyle(host).color;
  const data = [x, ...ys];
  let c = charts[id];
  if (c && (c.key !== key || c.width !== width)) {
    c.plot.destroy();
    c = undefined;
  }
  if (c) c.plot.setData(data);
  else if (typeof uPlot === 'function') charts[id] = { plot: newPlot(host, width, names, data, colors), key, width };
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
  $('rate-hidden').textContent = t.rate_hidden ? `busiest first; ${t.rate_hidden} more account(s) not shown` : '';
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

/** New series: drawn now, or when 2 s have passed since the last drawing (under load they change at every poll). */
export function showTimeline(timeline) {
  lastTimeline = timeline;
  const draw = () => {
    chartsAt = Date.now();
    renderCharts(lastTimeline);
  };
  clearTimeout(chartsTimer);
  const wait = 2000 - (Date.now() - chartsAt);
  if (wait <= 0) draw();
  else chartsTimer = setTimeout(draw, wait);
}

/** The live read asks for the series only while the panel is on screen; a resize draws them again. */
export function setUpCharts() {
  new IntersectionObserver((entries) => {
    const visible = entries.some((e) => e.isIntersecting);
    if (visible !== view.charts) {
      view.charts = visible;
      if (visible) refresh(true);
    }
  }).observe($('panel-charts'));
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => lastTimeline && renderCharts(lastTimeline), 150);
  });
}
