// The page's building blocks. Every value from the sandbox goes into the page as text, never as HTML: paths, names
// and headers may come from any client.

export const $ = (id) => document.getElementById(id);

export function el(tag, props, ...children) {
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

/** A row with `open` is a button for the keyboard too (Enter or Space). */
function rowAttrs(r) {
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
  return attrs;
}

function cell(r, c) {
  return c instanceof Node
    ? el('td', { class: c.classList && c.classList.contains('tags') ? 'soft' : undefined }, c)
    : el(
        'td',
        {
          class:
            [r.mono && r.mono.includes(c) ? 'mono' : '', r.wrap && r.wrap.includes(c) ? 'wrap' : ''].join(' ').trim() ||
            undefined,
        },
        c,
      );
}

/** A cell names its column, so a row still reads when a narrow screen shows it as a card (the header is hidden). */
function labelled(td, column) {
  if (column && column !== '#') td.dataset.label = column;
  return td;
}

/** A table; a re-render keeps the keyboard where it was. */
export function table(id, columns, rows, empty) {
  const body =
    rows.length === 0
      ? [el('tr', {}, el('td', { class: 'empty', colspan: columns.length }, empty))]
      : rows.map((r) =>
          el(
            'tr',
            rowAttrs(r),
            r.cells.map((c, i) => labelled(cell(r, c), columns[i])),
          ),
        );
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
  if (index >= 0 && body[index] && body[index].tabIndex === 0) body[index].focus({ preventScroll: true });
}

export const usd = (n) => '$' + n.toFixed(n < 1 && n > 0 ? 4 : 2);
export const time = (iso) => (iso ? iso.slice(11, 19) : null);
/** How long the sandbox held an answer (`latency_ms`: a `latency` scenario's delay): `500 ms`, or `—` for none. */
export const latency = (ms) => (typeof ms === 'number' && ms > 0 ? Math.round(ms * 10) / 10 + ' ms' : '—');
export const statusCell = (s) => el('b', { class: 's' + String(s)[0] }, s === 0 ? 'network error' : s);
export const tags = (values) =>
  el(
    'span',
    { class: 'tags' },
    values.map((v) => el('span', { class: 'tag' }, v)),
  );

const seen = {};
/** Whether a part of the page has new data since it was drawn (unchanged parts are not rebuilt). */
export function changed(name, value) {
  const text = JSON.stringify(value);
  if (seen[name] === text) return false;
  seen[name] = text;
  return true;
}
/** The part is drawn anew next time, whatever its data. */
export function forget(name) {
  delete seen[name];
}

// Unchanged text or class is not written again: a write makes the browser lay the page out anew.
export const setText = (node, text) => {
  if (node.textContent !== text) node.textContent = text;
};
export const setClass = (node, name) => {
  if (node.className !== name) node.className = name;
};

export function fillSelect(select, none, values) {
  const want = [none, ...values].join('\n');
  if (select.dataset.values === want) return;
  const chosen = select.value;
  select.replaceChildren(el('option', { value: '' }, none), ...values.map((v) => el('option', { value: v }, v)));
  select.dataset.values = want;
  select.value = values.includes(chosen) ? chosen : '';
}

export function showError(message) {
  $('error').style.display = message ? 'block' : 'none';
  $('error').textContent = message || '';
}
