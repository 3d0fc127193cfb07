import express, { type NextFunction, type Request, type Response } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { ApiError, ERRORS, errorBody, type ErrorCode } from '../rules/errors.js';
import { SandboxError } from '../errors.js';
import type { SandboxCore as Sandbox } from '../sandbox-types.js';
import type { Scope } from '../model/scopes.js';
import { createOpenApiDocument } from '../core/openapi.js';
import { createInspectorAssetsRouter, createInspectorRouter } from './inspector/router.js';
import { createWebhooksRouter } from './control-webhooks.js';
import type { RequestFilter } from '../core/journal.js';
import { controlBodies, parseInput, scenarioClearQuery } from '../schemas.js';
import { body, readControlBody } from './control-body.js';


function sendError(res: Response, code: ErrorCode, message: string = ERRORS[code].message): void {
  res.status(ERRORS[code].status).type('application/json; charset=utf-8').send(errorBody(code, message));
}


/**
 * The control API (README.md, "The control API") under `/__sandbox`: no API key, no rate limit, not counted in usage.
 */
export function createControlRouter(sandbox: Sandbox, controlToken: string | undefined): express.Router {
  const router = express.Router();
  // The API description holds no secret: served without the control token, so a code generator can fetch it.
  const openApi = new Map<string, string>();
  router.get('/openapi.json', (req, res) => {
    const serverUrl = `${req.protocol}://${req.get('host') ?? 'localhost'}${sandbox.basePath}`;
    let text = openApi.get(serverUrl);
    if (text === undefined) {
      text = JSON.stringify(createOpenApiDocument({ serverUrl, basePath: sandbox.basePath }), null, 2);
      if (openApi.size < 16) openApi.set(serverUrl, text);
    }
    res.type('application/json; charset=utf-8').send(text);
  });
  router.use(createInspectorAssetsRouter());
  router.use((req, res, next) => {
    if (controlToken === undefined) return next();
    const given = req.get('x-sandbox-token') ?? (typeof req.query.token === 'string' ? req.query.token : '');
    const a = Buffer.from(given);
    const b = Buffer.from(controlToken);
    if (a.length === b.length && timingSafeEqual(a, b)) return next();
    sendError(res, 'invalid_api_key', 'The control API needs the control token: send it in the X-Sandbox-Token header.');
  });
  router.use(readControlBody);

  router.use(createInspectorRouter(sandbox));
  router.get('/overview', (req, res) => {
    const n = (v: unknown) => (typeof v === 'string' && /^[0-9]{1,4}$/.test(v) ? Number(v) : undefined);
    res.json(sandbox.overview({ tasks: n(req.query.tasks), requests: n(req.query.requests) }));
  });
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
    res.json(sandbox.accounts.update(req.params.id!, { plan: b.plan, balanceUsd: b.balance_usd, limits: b.limits }));
  });
  router.get('/keys', (_req, res) => {
    res.json({ data: sandbox.keys.list().map((k) => ({ ...toKeyJson(k), label: k.label, revoked: k.revoked })) });
  });
  router.post('/keys', (req, res) => {
    const b = body(controlBodies.keyCreate, req);
    res.status(201).json(toKeyJson(sandbox.keys.create({ accountId: b.account_id, scopes: b.scopes, label: b.label })));
  });
  router.delete('/keys/:id', (req, res) => {
    sandbox.keys.revoke(req.params.id!);
    res.status(204).end();
  });
  router.post('/clock', (req, res) => {
    const b = body(controlBodies.clock, req);
    if ('advance' in b) sandbox.clock.advance(b.advance);
    else if ('set' in b) sandbox.clock.set(b.set);
    res.json({ now: new Date(sandbox.clock.now()).toISOString(), mode: sandbox.clock.mode });
  });
  router.get('/clock', (_req, res) => {
    res.json({ now: new Date(sandbox.clock.now()).toISOString(), mode: sandbox.clock.mode });
  });
  router.post('/scenarios', (req, res) => {
    const b = body(controlBodies.scenario, req);
    sandbox.useScenario(b.name, { ...b.options, accountId: b.account_id, keyId: b.key_id });
    res.status(204).end();
  });
  router.delete('/scenarios', (req, res) => {
    // A malformed or unknown filter is a 400 (never "clear everything"). `?scope=sandbox` removes only the
    // sandbox-wide ones (the inspector's Clear keeps magic keys and account scopes).
    const q = parseInput(scenarioClearQuery, { ...req.query }, 'the query');
    sandbox.clearScenarios(q.account_id || q.key_id ? { accountId: q.account_id, keyId: q.key_id } : q.scope === 'sandbox' ? {} : undefined);
    res.status(204).end();
  });
  router.get('/tasks', (req, res) => {
    res.json({ data: sandbox.tasks.list(typeof req.query.account_id === 'string' ? req.query.account_id : undefined) });
  });
  router.post('/tasks/:id/complete', (req, res) => {
    const b = body(controlBodies.taskComplete, req);
    res.json(sandbox.tasks.complete(req.params.id!, b.result));
  });
  router.post('/tasks/:id/fail', (req, res) => {
    const b = body(controlBodies.taskFail, req);
    res.json(sandbox.tasks.fail(req.params.id!, b.error));
  });
  router.get('/requests', (req, res) => {
    res.json({ data: sandbox.findRequests(requestFilter(req.query)) });
  });
  router.get('/requests/:id', (req, res) => {
    const entry = sandbox.findRequests().find((e) => e.id === req.params.id);
    if (!entry) throw new SandboxError(`No request '${req.params.id}' in the journal (it keeps the last ones only).`, 'not_found');
    res.json(entry);
  });
  router.get('/audit', (req, res) => {
    res.json({ data: sandbox.audit(auditFilter(req.query)) });
  });
  router.delete('/requests', (_req, res) => {
    sandbox.clearRequests();
    res.status(204).end();
  });
  router.post('/reset', (_req, res) => {
    sandbox.reset();
    res.status(204).end();
  });
  router.get('/state', (_req, res) => {
    res.json(sandbox.snapshot());
  });
  router.put('/state', (req, res) => {
    sandbox.restore(req.body);
    res.status(204).end();
  });
  router.use(createWebhooksRouter(sandbox));
  router.use((req, res) => sendError(res, 'not_found', `No control route for ${req.method} /__sandbox${req.path}.`));
  router.use(controlErrorHandler);
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
    if (!FILTER_PARAMS.includes(name) && name !== 'token') throw new SandboxError(`Unknown query parameter '${name}'. Filters: ${FILTER_PARAMS.join(', ')}.`);
  }
  const status = one('status');
  if (status !== undefined && !/^[0-9]{1,3}$/.test(status)) throw new SandboxError(`status must be an HTTP status code; got '${status}'.`);
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
    if (name !== 'account_id' && name !== 'token') throw new SandboxError(`Unknown query parameter '${name}'. Filters: account_id.`);
  }
  const accountId = query.account_id;
  if (accountId !== undefined && typeof accountId !== 'string') throw new SandboxError(`Give the query parameter 'account_id' once, as a plain value.`);
  return accountId === undefined ? {} : { accountId };
}

function toKeyJson(k: { id: string; key: string; accountId: string; scopes: Scope[] }) {
  return { id: k.id, key: k.key, account_id: k.accountId, scopes: k.scopes };
}

/** Every error leaves in the error shape; nothing else (no stack, no HTML). */
export function controlErrorHandler(error: unknown, _req: Request, res: Response, _next: NextFunction): void {
  if (res.headersSent) return void res.end();
  const e = error as { type?: string; status?: number };
  if (error instanceof ApiError) return sendError(res, error.code, error.message);
  // Every other error of the package (one tree, src/errors.ts): a catalogued code as it is, else a bad request its message explains.
  if (error instanceof SandboxError) return sendError(res, Object.hasOwn(ERRORS, error.code) ? (error.code as ErrorCode) : 'invalid_request', error.message.replace(/^\[agent-work-sandbox\] /, ''));
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) return sendError(res, 'invalid_request', 'The request could not be read.');
  sendError(res, 'internal_error');
}
