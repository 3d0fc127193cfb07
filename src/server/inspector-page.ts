/**
 * The inspector: one HTML page with inline CSS and JS, no framework, served at `/__sandbox/`. It polls
 * `GET /__sandbox/overview` every 500 ms and drives the control API with its buttons. Every value from the sandbox is
 * put into the page as text (never as HTML): paths and names may come from any client.
 */
export const INSPECTOR_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>agent-work-sandbox inspector</title>
<style>
  :root { --bg:#f6f7f9; --card:#fff; --ink:#1d2330; --mute:#6b7280; --line:#e5e7eb; --ok:#0f7b3f; --warn:#a15c00; --bad:#b42318; --acc:#2f5bd3; }
  * { box-sizing: border-box; }
  body { margin:0; font:13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color:var(--ink); background:var(--bg); }
  header { position:sticky; top:0; z-index:1; display:flex; flex-wrap:wrap; gap:12px; align-items:center; padding:10px 16px; background:#111827; color:#fff; }
  header h1 { font-size:15px; margin:0 12px 0 0; }
  header .group { display:flex; gap:6px; align-items:center; }
  header .clock { font-family:ui-monospace, monospace; }
  #live { width:9px; height:9px; border-radius:50%; background:#6b7280; display:inline-block; }
  #live.on { background:#22c55e; } #live.off { background:var(--bad); }
  button, select, input { font:inherit; padding:2px 7px; border-radius:5px; border:1px solid #9ca3af; background:#fff; color:var(--ink); }
  button { cursor:pointer; } button:hover { border-color:var(--acc); }
  button.danger { color:var(--bad); }
  main { display:grid; grid-template-columns:minmax(0, 1.2fr) minmax(0, 1fr); gap:14px; padding:14px 16px; }
  @media (max-width: 1100px) { main { grid-template-columns:minmax(0, 1fr); } }
  section { background:var(--card); border:1px solid var(--line); border-radius:8px; overflow:auto; max-height:440px; }
  section h2 { position:sticky; top:0; margin:0; padding:8px 12px; font-size:13px; background:#f9fafb; border-bottom:1px solid var(--line); }
  section h2 small { color:var(--mute); font-weight:normal; }
  table { border-collapse:collapse; width:100%; }
  th, td { text-align:left; padding:4px 8px; border-bottom:1px solid var(--line); white-space:nowrap; vertical-align:top; }
  td.wrap { white-space:normal; word-break:break-all; min-width:140px; }
  td.soft { white-space:normal; min-width:120px; }
  th { color:var(--mute); font-weight:600; font-size:12px; }
  td.mono, .mono { font-family:ui-monospace, monospace; font-size:12px; }
  .tag { display:inline-block; padding:0 6px; border-radius:9px; font-size:11px; background:#eef2ff; color:#3730a3; margin-right:3px; }
  .s2 { color:var(--ok); } .s4 { color:var(--warn); } .s5, .s0 { color:var(--bad); }
  .st-queued { color:var(--mute); } .st-running { color:var(--acc); } .st-completed { color:var(--ok); } .st-failed { color:var(--bad); }
  .revoked { color:var(--mute); text-decoration:line-through; }
  #error { display:none; margin:10px 16px 0; padding:8px 12px; border-radius:6px; background:#fef3f2; color:var(--bad); border:1px solid #fecdca; }
  .bar { display:inline-block; width:70px; height:7px; background:#e5e7eb; border-radius:4px; vertical-align:middle; margin-right:6px; }
  .bar i { display:block; height:100%; background:var(--acc); border-radius:4px; }
  .empty { padding:10px 12px; color:var(--mute); }
  .keyed { color:#9ca3af; font-size:11px; margin-left:4px; }
</style>
</head>
<body>
<header>
  <h1>agent-work-sandbox</h1>
  <span id="live" title="live"></span>
  <span class="clock" id="clock">…</span>
  <div class="group">
    <button data-advance="1s">+1 s</button><button data-advance="10s">+10 s</button><button data-advance="1m">+1 min</button><button data-advance="1h">+1 h</button>
    <input id="advance" size="5" placeholder="90s" aria-label="advance by"><button id="advance-go">Advance</button>
  </div>
  <div class="group">
    <select id="scenario" aria-label="scenario"></select>
    <select id="scope" aria-label="scope"><option value="">whole sandbox</option></select>
    <button id="apply">Apply</button><button id="clear" title="Removes the scenarios of the chosen scope (magic keys keep theirs)">Clear</button>
  </div>
  <div class="group"><button id="reset" class="danger">Reset</button></div>
  <span id="scenarios"></span>
</header>
<div id="error"></div>
<main>
  <section><h2>Requests <small>newest first</small></h2><table id="requests"></table></section>
  <section><h2>Tasks <small id="task-count"></small></h2><table id="tasks"></table></section>
  <section><h2>Accounts</h2><table id="accounts"></table></section>
  <section><h2>Keys</h2><table id="keys"></table></section>
  <section><h2>Agents <small id="agent-count"></small></h2><table id="agents"></table></section>
</main>
<script>
"use strict";
const token = new URLSearchParams(location.search).get("token");
const headers = token ? { "X-Sandbox-Token": token } : {};
const $ = (id) => document.getElementById(id);
const SCENARIOS = __SCENARIOS__;

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (k === "onclick") node.onclick = v; else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v);
  }
  for (const c of children.flat()) node.append(c instanceof Node ? c : document.createTextNode(c === null || c === undefined ? "—" : String(c)));
  return node;
}
function table(id, columns, rows, empty) {
  const t = $(id);
  const body = rows.length === 0 ? [el("tr", {}, el("td", { class: "empty", colspan: columns.length }, empty))] : rows.map((r) => el("tr", r.attrs || {}, r.cells.map((c) => c instanceof Node ? el("td", { class: c.classList && c.classList.contains("tags") ? "soft" : undefined }, c) : el("td", { class: [r.mono && r.mono.includes(c) ? "mono" : "", r.wrap && r.wrap.includes(c) ? "wrap" : ""].join(" ").trim() || undefined }, c))));
  t.replaceChildren(el("thead", {}, el("tr", {}, columns.map((c) => el("th", {}, c)))), el("tbody", {}, body));
}
const usd = (n) => "$" + n.toFixed(n < 1 && n > 0 ? 4 : 2);
const time = (iso) => (iso ? iso.slice(11, 19) : null);

async function control(method, path, body) {
  const res = await fetch("/__sandbox" + path, { method, headers: { ...headers, ...(body ? { "Content-Type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined });
  if (!res.ok) {
    const e = await res.json().catch(() => null);
    throw new Error(e && e.error ? e.error.code + ": " + e.error.message : "HTTP " + res.status);
  }
  return res.status === 204 ? null : res.json();
}
function act(fn) {
  return async () => {
    try { await fn(); showError(null); } catch (e) { showError(e.message); }
    refresh();
  };
}
function showError(message) {
  $("error").style.display = message ? "block" : "none";
  $("error").textContent = message || "";
}

function render(o) {
  $("clock").textContent = o.now.replace("T", " ").replace(".000Z", "Z") + " · " + o.clock;
  const onKeys = o.scenarios.filter((s) => s.key_id);
  $("scenarios").replaceChildren(...o.scenarios.filter((s) => !s.key_id).map((s) => el("span", { class: "tag" }, s.name + (s.account_id ? " @" + s.account_id : ""))),
    ...(onKeys.length ? [el("span", { class: "keyed", title: onKeys.map((s) => s.name + " @" + s.key_id).join(", ") }, onKeys.length + " on keys")] : []));
  const scope = $("scope");
  if (scope.options.length !== o.accounts.length + 1) {
    scope.replaceChildren(el("option", { value: "" }, "whole sandbox"), ...o.accounts.map((a) => el("option", { value: a.id }, a.id)));
  }
  table("requests", ["time", "method", "path", "status", "code", "key", "scenarios"], o.requests.map((r) => ({
    attrs: { "data-seq": r.seq },
    mono: [r.path, r.keyId],
    wrap: [r.path],
    cells: [time(r.time), r.method, r.path, el("b", { class: "s" + String(r.status)[0] }, r.status === 0 ? "network error" : r.status), r.code, r.keyId, r.scenarios.join(", ") || ""],
  })), "No requests yet. Point a client at the base URL.");
  $("task-count").textContent = o.task_count > o.tasks.length ? o.tasks.length + " of " + o.task_count : String(o.task_count);
  table("tasks", ["id", "account", "agent", "status", "priority", "model", "cost", "created"], o.tasks.map((t) => ({
    mono: [t.id, t.agent_id],
    cells: [t.id, t.account_id, t.agent_id, el("b", { class: "st-" + t.status }, t.status), t.priority, t.model, usd(t.usage.cost_usd), time(t.created_at)],
  })), "No tasks yet.");
  table("accounts", ["id", "name", "plan", "balance", "held", "rate window", "tokens", "resets", "requests"], o.accounts.map((a) => {
    const used = a.rate_window.requests;
    const bar = el("span", { class: "bar" }, el("i", { style: "width:" + Math.min(100, Math.round((100 * used) / a.limits.rpm)) + "%" }));
    return { mono: [a.id], cells: [a.id, a.name, a.plan, usd(a.balance_usd), usd(a.held_usd), el("span", {}, bar, used + " / " + a.limits.rpm + " rpm"), a.rate_window.tokens + " / " + a.limits.tpm, time(a.rate_window.reset), a.period_requests] };
  }), "No accounts.");
  table("keys", ["label", "key", "account", "scopes", ""], o.keys.map((k) => ({
    attrs: { class: k.revoked ? "revoked" : undefined },
    mono: [k.key],
    cells: [k.label, k.key, k.account_id, el("span", { class: "tags" }, k.scopes.map((s) => el("span", { class: "tag" }, s))),
      k.revoked ? "revoked" : el("button", { class: "danger", "data-revoke": k.id, onclick: act(() => control("DELETE", "/keys/" + encodeURIComponent(k.id))) }, "Revoke")],
  })), "No keys.");
  $("agent-count").textContent = String(o.agents.length);
  table("agents", ["id", "name", "model", "status", "capabilities"], o.agents.map((a) => ({
    mono: [a.id],
    cells: [a.id, a.name, a.model, a.status, el("span", { class: "tags" }, a.capabilities.map((c) => el("span", { class: "tag" }, c)))],
  })), "The catalog is empty.");
}

let timer;
async function refresh() {
  clearTimeout(timer);
  try {
    render(await control("GET", "/overview"));
    $("live").className = "on";
  } catch (e) {
    $("live").className = "off";
    showError("Cannot reach the sandbox: " + e.message);
  }
  timer = setTimeout(refresh, 500);
}

$("scenario").replaceChildren(...SCENARIOS.map((s) => el("option", { value: s.name, title: s.description }, s.name)));
for (const b of document.querySelectorAll("[data-advance]")) b.onclick = act(() => control("POST", "/clock", { advance: b.dataset.advance }));
$("advance-go").onclick = act(() => control("POST", "/clock", { advance: $("advance").value.trim() || "0" }));
$("apply").onclick = act(() => control("POST", "/scenarios", { name: $("scenario").value, account_id: $("scope").value || undefined }));
$("clear").onclick = act(() => control("DELETE", "/scenarios?" + ($("scope").value ? "account_id=" + encodeURIComponent($("scope").value) : "scope=sandbox")));
$("reset").onclick = act(() => (confirm("Reset the sandbox to its initial state?") ? control("POST", "/reset") : null));
refresh();
</script>
</body>
</html>
`;
