/** The request journal and the audit in the control API: `/requests` (filtered), `/requests/:id`, `/audit`. */
import express, { type Request } from 'express';
import type { RequestFilter } from '../core/journal.js';
import { SandboxError } from '../errors.js';
import type { SandboxCore as Sandbox } from '../sandbox-types.js';

export function createJournalRouter(sandbox: Sandbox): express.Router {
  const router = express.Router();
  router.get('/requests', (req, res) => {
    res.json({ data: sandbox.findRequests(requestFilter(req.query)) });
  });
  router.get('/requests/:id', (req, res) => {
    const entry = sandbox.findRequests().find((e) => e.id === req.params.id);
    if (!entry)
      throw new SandboxError(
        `No request '${req.params.id}' in the journal (it keeps the last ones only).`,
        'not_found',
      );
    res.json(entry);
  });
  router.get('/audit', (req, res) => {
    res.json({ data: sandbox.audit(auditFilter(req.query)) });
  });
  router.delete('/requests', (_req, res) => {
    sandbox.clearRequests();
    res.status(204).end();
  });
  return router;
}

const FILTER_PARAMS = ['method', 'path', 'status', 'code', 'key_id', 'account_id', 'scenario'];

/** `GET /__sandbox/requests?method=&path=&status=&code=&key_id=&account_id=&scenario=` → a journal filter. */
function requestFilter(query: Request['query']): RequestFilter {
  const one = (name: string): string | undefined => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw new SandboxError(`Give the query parameter '${name}' once, as a plain value.`);
    return value;
  };
  for (const name of Object.keys(query)) {
    if (!FILTER_PARAMS.includes(name) && name !== 'token')
      throw new SandboxError(`Unknown query parameter '${name}'. Filters: ${FILTER_PARAMS.join(', ')}.`);
  }
  const status = one('status');
  if (status !== undefined && !/^[0-9]{1,3}$/.test(status))
    throw new SandboxError(`status must be an HTTP status code; got '${status}'.`);
  const code = one('code');
  return {
    method: one('method'),
    path: one('path'),
    status: status === undefined ? undefined : Number(status),
    code: code === 'null' ? null : code,
    keyId: one('key_id'),
    accountId: one('account_id'),
    scenario: one('scenario'),
  };
}

/** `GET /__sandbox/audit?account_id=` → the audit's filter. */
function auditFilter(query: Request['query']): { accountId?: string } {
  for (const name of Object.keys(query)) {
    if (name !== 'account_id' && name !== 'token')
      throw new SandboxError(`Unknown query parameter '${name}'. Filters: account_id.`);
  }
  const accountId = query.account_id;
  if (accountId !== undefined && typeof accountId !== 'string')
    throw new SandboxError(`Give the query parameter 'account_id' once, as a plain value.`);
  return accountId === undefined ? {} : { accountId };
}
