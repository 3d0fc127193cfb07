/** Accounts, keys and tasks in the control API (wire names in snake_case, the library's in camelCase). */
import express from 'express';
import type { Scope } from '../model/scopes.js';
import type { SandboxCore as Sandbox } from '../sandbox-types.js';
import { controlBodies } from '../schemas.js';
import { body } from './control-body.js';

function toKeyJson(k: { id: string; key: string; accountId: string; scopes: Scope[] }) {
  return { id: k.id, key: k.key, account_id: k.accountId, scopes: k.scopes };
}

export function createRecordsRouter(sandbox: Sandbox): express.Router {
  const router = express.Router();
  router.get('/accounts', (_req, res) => {
    res.json({ data: sandbox.accounts.list() });
  });
  router.post('/accounts', (req, res) => {
    const b = body(controlBodies.accountCreate, req);
    const created = sandbox.accounts.create({ plan: b.plan, balanceUsd: b.balance_usd, name: b.name });
    res.status(201).json({ ...created.account, key: toKeyJson(created.key) });
  });
  router.patch('/accounts/:id', (req, res) => {
    const b = body(controlBodies.accountPatch, req);
    res.json(sandbox.accounts.update(req.params.id, { plan: b.plan, balanceUsd: b.balance_usd, limits: b.limits }));
  });
  router.get('/keys', (_req, res) => {
    res.json({ data: sandbox.keys.list().map((k) => ({ ...toKeyJson(k), label: k.label, revoked: k.revoked })) });
  });
  router.post('/keys', (req, res) => {
    const b = body(controlBodies.keyCreate, req);
    res.status(201).json(toKeyJson(sandbox.keys.create({ accountId: b.account_id, scopes: b.scopes, label: b.label })));
  });
  router.delete('/keys/:id', (req, res) => {
    sandbox.keys.revoke(req.params.id);
    res.status(204).end();
  });
  router.get('/tasks', (req, res) => {
    res.json({ data: sandbox.tasks.list(typeof req.query.account_id === 'string' ? req.query.account_id : undefined) });
  });
  router.post('/tasks/:id/complete', (req, res) => {
    const b = body(controlBodies.taskComplete, req);
    res.json(sandbox.tasks.complete(req.params.id, b.result));
  });
  router.post('/tasks/:id/fail', (req, res) => {
    const b = body(controlBodies.taskFail, req);
    res.json(sandbox.tasks.fail(req.params.id, b.error));
  });
  return router;
}
