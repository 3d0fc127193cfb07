import { createHash } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { SandboxError } from '../../errors.js';
import type { JournalEntry } from '../../core/journal.js';
import type { SandboxCore as Sandbox } from '../../sandbox-types.js';
import { INSPECTOR_ASSETS, INSPECTOR_CSP, inspectorPage } from './assets.js';
import { timeline } from './timeline.js';

/** Requests listed by the page at most (the journal keeps more; filters narrow it). */
const LISTED = 200;

const etagOf = (text: string) => `"${createHash('sha1').update(text).digest('base64url')}"`;

/** Sends JSON with an ETag; a poll that already has this answer gets 304 and no body. */
function sendTagged(req: Request, res: Response, text: string, type = 'application/json; charset=utf-8', tag = etagOf(text)): void {
  res.set('ETag', tag).set('Cache-Control', 'no-cache');
  if (req.get('if-none-match') === tag) return void res.status(304).end();
  res.type(type).send(text);
}

/** The page's static files: no secret in them, served without the control token (like openapi.json). */
export function createInspectorAssetsRouter(): express.Router {
  const router = express.Router();
  const tags = new Map(Object.entries(INSPECTOR_ASSETS).map(([name, a]) => [name, etagOf(a.body)]));
  router.get('/inspector/:file', (req, res, next) => {
    const asset = INSPECTOR_ASSETS[req.params.file!];
    if (!asset) return next();
    res.set('X-Content-Type-Options', 'nosniff');
    sendTagged(req, res, asset.body, asset.type, tags.get(req.params.file!));
  });
  return router;
}

type Summary = Omit<JournalEntry, never> & { id?: string };

/** A journal entry without its detail (headers, bodies, trace): what the list shows. */
function summary(e: JournalEntry): Summary {
  const { request: _request, response: _response, trace, ...rest } = e as JournalEntry & { request?: unknown; response?: unknown; trace?: unknown[] };
  return { ...rest, ...(Array.isArray(trace) ? { steps: trace.length } : {}) } as Summary;
}

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** The filters of the request list (`status`: a code or a class like `4xx`; `key_id`; `account_id`; `path`: a part of it) over the journal, newest first. */
function listRequests(newestFirst: JournalEntry[], query: Request['query']): Summary[] {
  const status = text(query.status);
  if (status !== undefined && !/^[1-5]([0-9]{2}|xx)$|^0$/.test(status)) throw new SandboxError(`status must be a status code or a class like 4xx; got '${status}'.`);
  const keyId = text(query.key_id);
  const accountId = text(query.account_id);
  const path = text(query.path)?.toLowerCase();
  const out: Summary[] = [];
  for (const e of newestFirst) {
    if (out.length >= LISTED) break;
    if (status !== undefined && (status.endsWith('xx') ? String(e.status)[0] !== status[0] : e.status !== Number(status))) continue;
    if (keyId !== undefined && e.keyId !== keyId) continue;
    if (accountId !== undefined && e.accountId !== accountId) continue;
    if (path !== undefined && !e.path.toLowerCase().includes(path)) continue;
    out.push(summary(e));
  }
  return out;
}

/** The page and its data: one `live` read (polled with ETags) and one request's detail. */
export function createInspectorRouter(sandbox: Sandbox): express.Router {
  const router = express.Router();
  const page = inspectorPage();
  router.get('/', (req, res) => {
    res.set('Content-Security-Policy', INSPECTOR_CSP);
    sendTagged(req, res, page, 'text/html; charset=utf-8');
  });
  router.get('/inspector/live', (req, res) => {
    // One read of the sandbox per poll: the whole journal (newest first) and, for the charts, every task.
    const charts = req.query.charts === '1';
    const overview = sandbox.overview({ requests: Number.MAX_SAFE_INTEGER, tasks: charts ? Number.MAX_SAFE_INTEGER : 200 });
    const journal = overview.requests;
    const deliveries = sandbox.webhooks.deliveries();
    const body = {
      ...overview,
      tasks: overview.tasks.slice(0, 200),
      requests: listRequests(journal, req.query),
      request_count: journal.length,
      webhooks: sandbox.webhooks.list().map((e) => ({ id: e.id, account_id: e.accountId, url: e.url, created_at: e.createdAt })),
      deliveries: deliveries.slice(Math.max(0, deliveries.length - LISTED)).reverse(),
      timeline: charts ? timeline({ now: sandbox.clock.now(), requests: journal, tasks: overview.tasks, accounts: overview.accounts }) : null,
    };
    sendTagged(req, res, JSON.stringify(body));
  });
  router.get('/inspector/requests/:ref', (req, res) => {
    const ref = req.params.ref!;
    const entry = sandbox.requests.find((e) => (e as JournalEntry & { id?: string }).id === ref || String(e.seq) === ref);
    if (!entry) throw new SandboxError(`No request '${ref}' in the journal (it keeps the newest requests only).`, 'not_found');
    res.json(entry);
  });
  return router;
}
