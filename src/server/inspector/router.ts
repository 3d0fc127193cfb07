import { createHash } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { SandboxError } from '../../errors.js';
import type { SummaryFields } from '../../core/journal.js';
import type { SandboxCore as Sandbox } from '../../sandbox-types.js';
import { INSPECTOR_ASSETS, INSPECTOR_CSP, inspectorPage } from './assets.js';
import { timeline } from './timeline.js';
import type { StateFileStatus } from '../durable-state.js';
import { toSnakeCase } from '../wire-case.js';

/** Requests listed by the page at most (the journal keeps more; filters narrow it). */
const LISTED = 200;

const etagOf = (text: string) => `"${createHash('sha1').update(text).digest('base64url')}"`;

/** Sends a text with an ETag (its own, or one made from it); a client that already has it gets 304 and no body. */
function sendTagged(req: Request, res: Response, text: { body: string; type: string; tag?: string }): void {
  const tag = text.tag ?? etagOf(text.body);
  res.set('ETag', tag).set('Cache-Control', 'no-cache');
  if (req.get('if-none-match') === tag) return void res.status(304).end();
  res.type(text.type).send(text.body);
}

/** The page's static files: no secret in them, served without the control token (like openapi.json). */
export function createInspectorAssetsRouter(): express.Router {
  const router = express.Router();
  const tags = new Map(Object.entries(INSPECTOR_ASSETS).map(([name, a]) => [name, etagOf(a.body)]));
  router.get('/inspector/:file', (req, res, next) => {
    const file = req.params.file;
    const asset = INSPECTOR_ASSETS[file];
    if (!asset) {
      next();
      return;
    }
    res.set('X-Content-Type-Options', 'nosniff');
    sendTagged(req, res, { body: asset.body, type: asset.type, tag: tags.get(file) });
  });
  return router;
}

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** The filters of the request list (`status`: a code or a class like `4xx`; `key_id`; `account_id`; `path`: a part of it). */
function requestFilter(query: Request['query']): ((e: SummaryFields) => boolean) | undefined {
  const status = text(query.status);
  if (status !== undefined && !/^[1-5]([0-9]{2}|xx)$|^0$/.test(status))
    throw new SandboxError(`status must be a status code or a class like 4xx; got '${status}'.`);
  const keyId = text(query.key_id);
  const accountId = text(query.account_id);
  const path = text(query.path)?.toLowerCase();
  if (status === undefined && keyId === undefined && accountId === undefined && path === undefined) return undefined;
  return (e) =>
    (status === undefined ||
      (status.endsWith('xx') ? String(e.status)[0] === status[0] : e.status === Number(status))) &&
    (keyId === undefined || e.keyId === keyId) &&
    (accountId === undefined || e.accountId === accountId) &&
    (path === undefined || e.path.toLowerCase().includes(path));
}

/** The page and its data: one `live` read (polled with ETags) and one request's detail. */
export function createInspectorRouter(sandbox: Sandbox, stateFileStatus?: () => StateFileStatus): express.Router {
  const router = express.Router();
  const page = inspectorPage();
  // Control requests that may change the sandbox (every control request passes here first).
  let writes = 0;
  router.use((req, _res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') writes += 1;
    next();
  });
  router.get('/', (req, res) => {
    res.set('Content-Security-Policy', INSPECTOR_CSP);
    sendTagged(req, res, { body: page, type: 'text/html; charset=utf-8' });
  });
  router.get('/inspector/live', (req, res) => {
    // The answer's tag comes from a mark of the sandbox's state, read without building the answer: an unchanged poll
    // (the usual one: the page polls twice a second) costs a few small reads and a 304.
    const charts = req.query.charts === '1';
    const stateFile = stateFileStatus?.() ?? null;
    const filter = requestFilter(req.query);
    const mark = sandbox.overview({ tasks: 0, requests: 0 });
    const deliveries = sandbox.webhooks.deliveries();
    let attempts = 0;
    for (const d of deliveries) attempts += d.attempts.length;
    // A real clock is left out of the mark (the page keeps time itself), except that visible charts move each second.
    const ticks = charts && mark.clock !== 'manual' ? Math.floor(sandbox.clock.now() / 1000) : 0;
    const tag = etagOf(
      JSON.stringify([
        req.url,
        mark.version,
        mark.accounts,
        mark.keys,
        mark.scenarios,
        writes,
        sandbox.webhooks.list().length,
        deliveries.length,
        attempts,
        ticks,
        stateFile?.failing_since,
      ]),
    );
    res.set('ETag', tag).set('Cache-Control', 'no-cache');
    if (req.get('if-none-match') === tag) return void res.status(304).end();
    // One read of the sandbox: the newest requests that pass the filters (summaries) and, for the charts, every
    // request and task.
    const overview = sandbox.overview({
      requests: 0,
      requestSummaries: { limit: LISTED, filter },
      tasks: charts ? Number.MAX_SAFE_INTEGER : LISTED,
    });
    const { request_summaries: listed, ...rest } = overview;
    const body = {
      ...rest,
      tasks: overview.tasks.slice(0, LISTED),
      requests: listed ?? [],
      state_file: stateFile,
      webhooks: sandbox.webhooks
        .list()
        .map((e) => ({ id: e.id, account_id: e.accountId, url: e.url, created_at: e.createdAt })),
      deliveries: deliveries.slice(Math.max(0, deliveries.length - LISTED)).reverse(),
      timeline: charts
        ? timeline({
            now: sandbox.clock.now(),
            requests: sandbox.overview({ tasks: 0, requests: 0, requestSummaries: {} }).request_summaries ?? [],
            tasks: overview.tasks,
            accounts: overview.accounts,
          })
        : null,
    };
    res.type('application/json; charset=utf-8').send(JSON.stringify(toSnakeCase(body)));
  });
  router.get('/inspector/requests/:ref', (req, res) => {
    const ref = req.params.ref;
    const entry = sandbox.requests.find((e) => e.id === ref || String(e.seq) === ref);
    if (!entry)
      throw new SandboxError(`No request '${ref}' in the journal (it keeps the newest requests only).`, 'not_found');
    res.json(entry);
  });
  return router;
}
