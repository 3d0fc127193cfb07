import express, { type NextFunction, type Request, type Response } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { ApiError, ERRORS, errorBody, type ErrorCode } from '../rules/errors.js';
import { SandboxError } from '../errors.js';
import { ClockError } from '../model/clock.js';
import { SnapshotError } from '../model/state.js';
import { ScenarioError } from '../scenarios/active.js';
import type { SandboxCore as Sandbox } from '../sandbox.js';
import type { Scope } from '../model/scopes.js';
import type { PlanId } from '../model/plans.js';
import { createOpenApiDocument } from '../core/openapi.js';
import { createInspectorAssetsRouter, createInspectorRouter } from './inspector/router.js';
import { createWebhooksRouter } from './control-webhooks.js';
import type { RequestFilter } from '../core/journal.js';

const CONTROL_BODY_LIMIT = '5mb';

function sendError(res: Response, code: ErrorCode, message: string = ERRORS[code].message): void {
  res.status(ERRORS[code].status).type('application/json; charset=utf-8').send(errorBody(code, message));
}

function object(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new SandboxError('The request body must be a JSON object.');
  return body as Record<string, unknown>;
}

/**
 * The control API of CONTRACT §7 under `/__sandbox`: no API key, no rate limit, not counted in usage.
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
  router.use(express.json({ limit: CONTROL_BODY_LIMIT, strict: false }));

  router.use(createInspectorRouter(sandbox));
  router.get('/overview', (req, res) => {
    const n = (v: unknown) => (typeof v === 'string' && /^[0-9]{1,4}$/.test(v) ? Number(v) : undefined);
    res.json(sandbox.overview({ tasks: n(req.query.tasks), requests: n(req.query.requests) }));
  });
  router.get('/accounts', (_req, res) => {
    res.json({ data: sandbox.accounts.list() });
  });
  router.post('/accounts', (req, res) => {
    const b = object(req.body);
    const created = sandbox.accounts.create({ plan: b.plan as PlanId | undefined, balanceUsd: b.balance_usd as number | undefined, name: b.name as string | undefined });
    res.status(201).json({ ...created.account, key: toKeyJson(created.key) });
  });
  router.patch('/accounts/:id', (req, res) => {
    const b = object(req.body);
    const limits = b.limits === undefined ? undefined : object(b.limits);
    res.json(sandbox.accounts.update(req.params.id!, { plan: b.plan as PlanId | undefined, balanceUsd: b.balance_usd as number | undefined, limits: limits as { rpm?: number; tpm?: number } | undefined }));
  });
  router.get('/keys', (_req, res) => {
    res.json({ data: sandbox.keys.list().map((k) => ({ ...toKeyJson(k), label: k.label, revoked: k.revoked })) });
  });
  router.post('/keys', (req, res) => {
    const b = object(req.body);
    res.status(201).json(toKeyJson(sandbox.keys.create({ accountId: b.account_id as string | undefined, scopes: b.scopes as Scope[], label: b.label as string | undefined })));
  });
  router.delete('/keys/:id', (req, res) => {
    sandbox.keys.revoke(req.params.id!);
    res.status(204).end();
  });
  router.post('/clock', (req, res) => {
    const b = object(req.body);
    if (b.advance !== undefined) sandbox.clock.advance(b.advance as number | string);
    else if (b.set !== undefined) sandbox.clock.set(b.set as string | number);
    else if (Object.keys(b).length > 0) throw new SandboxError('Give { "advance": "90s" | ms } or { "set": ISO 8601 }.');
    res.json({ now: new Date(sandbox.clock.now()).toISOString(), mode: sandbox.clock.mode });
  });
  router.get('/clock', (_req, res) => {
    res.json({ now: new Date(sandbox.clock.now()).toISOString(), mode: sandbox.clock.mode });
  });
  router.post('/scenarios', (req, res) => {
    const b = object(req.body);
    if (typeof b.name !== 'string') throw new SandboxError('Give the scenario as { "name": "rate-limited", "account_id"?, "key_id"?, "options"? }.');
    sandbox.useScenario(b.name, { ...(b.options === undefined ? {} : object(b.options)), accountId: b.account_id as string | undefined, keyId: b.key_id as string | undefined });
    res.status(204).end();
  });
  router.delete('/scenarios', (req, res) => {
    const accountId = typeof req.query.account_id === 'string' ? req.query.account_id : undefined;
    const keyId = typeof req.query.key_id === 'string' ? req.query.key_id : undefined;
    // `?scope=sandbox` removes only the sandbox-wide ones (the inspector's Clear keeps magic keys and account scopes).
    sandbox.clearScenarios(accountId || keyId ? { accountId, keyId } : req.query.scope === 'sandbox' ? {} : undefined);
    res.status(204).end();
  });
  router.get('/tasks', (req, res) => {
    res.json({ data: sandbox.tasks.list(typeof req.query.account_id === 'string' ? req.query.account_id : undefined) });
  });
  router.post('/tasks/:id/complete', (req, res) => {
    const b = object(req.body);
    res.json(sandbox.tasks.complete(req.params.id!, b.result));
  });
  router.post('/tasks/:id/fail', (req, res) => {
    const b = object(req.body);
    res.json(sandbox.tasks.fail(req.params.id!, b.error as { code: string; message: string } | undefined));
  });
  router.get('/requests', (req, res) => {
    res.json({ data: sandbox.findRequests(requestFilter(req.query)) });
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

function toKeyJson(k: { id: string; key: string; accountId: string; scopes: Scope[] }) {
  return { id: k.id, key: k.key, account_id: k.accountId, scopes: k.scopes };
}

/** Every error leaves in the error shape; nothing else (no stack, no HTML). */
export function controlErrorHandler(error: unknown, _req: Request, res: Response, _next: NextFunction): void {
  if (res.headersSent) return void res.end();
  const e = error as { type?: string; status?: number };
  if (error instanceof SandboxError) return sendError(res, error.code, error.message.replace(/^\[agent-work-sandbox\] /, ''));
  if (error instanceof ClockError || error instanceof SnapshotError || error instanceof ScenarioError) return sendError(res, 'invalid_request', error.message);
  if (error instanceof ApiError) return sendError(res, error.code, error.message);
  if (e?.type === 'entity.parse.failed') return sendError(res, 'invalid_request', 'Invalid request body: it is not valid JSON.');
  if (e?.type === 'entity.too.large') return sendError(res, 'request_too_large', `The request body is larger than ${CONTROL_BODY_LIMIT}.`);
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) return sendError(res, 'invalid_request', 'The request could not be read.');
  sendError(res, 'internal_error');
}
