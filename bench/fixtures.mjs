/** What every bench case shares: the load key, the request bodies, and the sandbox's own answers. */
import { createSandbox } from '../dist/index.js';

export const TASK_BODY = JSON.stringify({
  agent_id: 'AGENT',
  description: 'Summarize the attached quarterly report in three bullet points.',
});

/** Lifts the limits of an account so that load measures 200s, not 429s or 402s. */
export const UNLIMITED = { limits: { rpm: 100_000_000, tpm: 100_000_000_000 }, balance_usd: 1_000_000 };

export function unlimit(sandbox, accountId = 'acc_demo') {
  sandbox.accounts.update(accountId, { limits: UNLIMITED.limits, balanceUsd: UNLIMITED.balance_usd });
}

/** The admin key of acc_demo in a sandbox (default fixtures). */
export function adminKey(sandbox, accountId = 'acc_demo') {
  return sandbox.keys.list(accountId).find((k) => k.label === 'admin' && !k.revoked).key;
}

/** The POST body naming the catalog's first agent. */
export function taskBody(sandbox) {
  const first = JSON.parse(call(sandbox, adminKey(sandbox), 'GET', '/ext/agents?limit=1').body).data[0].id;
  return TASK_BODY.replace('AGENT', first);
}

/** One request through the core. */
export function call(sandbox, key, method, pathAndQuery, body = '') {
  const q = pathAndQuery.indexOf('?');
  return sandbox.handle({
    method,
    path: q === -1 ? pathAndQuery : pathAndQuery.slice(0, q),
    query: q === -1 ? '' : pathAndQuery.slice(q + 1),
    header: (name) =>
      name === 'authorization' ? `Bearer ${key}` : name === 'content-type' && body ? 'application/json' : undefined,
    body,
    clientId: 'bench',
  });
}

/**
 * The answers of a default sandbox to the three benchmarked requests, the task read once finished: the bytes the bare
 * baseline serves. `create`: another build's `createSandbox` (its answers, for node:http serving that build's bytes).
 */
export function sampleAnswers(create = createSandbox) {
  // Advancing the manual clock finishes the task: the servers' polled task is a finished one too (bench/run.mjs).
  const sandbox = create({ clock: 'manual' });
  unlimit(sandbox);
  const key = adminKey(sandbox);
  const body = taskBody(sandbox);
  const created = call(sandbox, key, 'POST', '/ext/tasks', body);
  const id = JSON.parse(created.body).id;
  sandbox.clock.advance('1h');
  return {
    key,
    body,
    agents: call(sandbox, key, 'GET', '/ext/agents'),
    task: call(sandbox, key, 'GET', `/ext/tasks/${id}`),
    created,
  };
}

/** node:http's answer to a request without the sample key (bench/targets/bare.mjs and `fixedCore`). */
export const UNAUTHORIZED = {
  status: 401,
  headers: { 'Content-Type': 'application/json; charset=utf-8' },
  body: '{"error":{"code":"missing_api_key","message":"Missing API key."}}',
};
const NOT_FOUND = { status: 404, headers: {}, body: '' };

/**
 * A stand-in for `sandbox.handle` that answers the sample answers by route, doing what bench/targets/bare.mjs does
 * (the Bearer check, a POST's JSON parsed) and nothing of the core: the ceiling of the sandbox's own door.
 */
export function fixedCore({ key, agents, task, created }) {
  const expected = `Bearer ${key}`;
  return (req) => {
    if (req.header('authorization') !== expected) return UNAUTHORIZED;
    if (req.method === 'GET' && req.path === '/ext/agents') return agents;
    if (req.method === 'GET' && req.path.startsWith('/ext/tasks/')) return task;
    if (req.method === 'POST' && req.path === '/ext/tasks') {
      JSON.parse(req.body);
      return created;
    }
    return NOT_FOUND;
  };
}
