import express, { type RequestHandler } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { JSON_CONTENT_TYPE } from '../core/handle.js';
import { iso } from '../core/iso.js';
import type { SandboxCore as Sandbox } from '../sandbox-types.js';
import type { StateSnapshot } from '../model/state.js';
import { parseDuration } from '../model/clock.js';
import { createOpenApiDocument } from '../core/openapi.js';
import type { StateFileStatus } from './durable-state.js';
import { createControlOpenApiDocument } from './control-openapi.js';
import { createInspectorAssetsRouter, createInspectorRouter } from './inspector/router.js';
import { createWebhooksRouter } from './control-webhooks.js';
import { controlBodies, parseInput, scenarioClearQuery } from '../schemas.js';
import { body, readControlBody } from './control-body.js';
import { createJournalRouter } from './control-journal.js';
import { createAssertionsRouter } from './control-assertions.js';
import { createRecordsRouter } from './control-records.js';

import { controlErrorHandler, sendError } from './control-errors.js';
import { snakeCaseAnswers, toCamelCase } from './wire-case.js';

/**
 * The control API (docs/reference/control-api.md) under `/__sandbox`: no API key, no rate limit, not counted in usage.
 */
export function createControlRouter(
  sandbox: Sandbox,
  controlToken: string | undefined,
  stateFileStatus?: () => StateFileStatus,
): express.Router {
  const router = express.Router();
  // The API description holds no secret: served without the control token, so a code generator can fetch it.
  router.get('/openapi.json', openApiRoute(sandbox));
  router.get('/control/openapi.json', controlOpenApiRoute());
  router.use(createInspectorAssetsRouter());
  router.use(requireControlToken(controlToken));
  router.use(readControlBody);
  router.use(snakeCaseAnswers);

  router.use(createInspectorRouter(sandbox, stateFileStatus));
  router.get('/overview', (req, res) => {
    const n = (v: unknown) => (typeof v === 'string' && /^[0-9]{1,4}$/.test(v) ? Number(v) : undefined);
    res.json({
      ...sandbox.overview({
        tasks: n(req.query.tasks),
        requests: n(req.query.requests),
        accounts: n(req.query.accounts),
        keys: n(req.query.keys),
      }),
      state_file: stateFileStatus?.() ?? null,
    });
  });
  router.use(createRecordsRouter(sandbox));
  router.post('/clock', (req, res) => {
    const b = body(controlBodies.clock, req);
    if (b.advance !== undefined) sandbox.clock.advance(parseDuration(b.advance));
    else if (b.set !== undefined) sandbox.clock.set(b.set);
    res.json({ now: iso(sandbox.clock.now()), mode: sandbox.clock.mode });
  });
  router.get('/clock', (_req, res) => {
    res.json({ now: iso(sandbox.clock.now()), mode: sandbox.clock.mode });
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
    sandbox.clearScenarios(
      q.account_id || q.key_id ? { accountId: q.account_id, keyId: q.key_id } : q.scope === 'sandbox' ? {} : undefined,
    );
    res.status(204).end();
  });
  // Before the journal's `/requests/:id`, which would read `summary` as a request id.
  router.use(createAssertionsRouter(sandbox));
  router.use(createJournalRouter(sandbox));
  router.post('/reset', (_req, res) => {
    sandbox.reset();
    res.status(204).end();
  });
  router.get('/state', (_req, res) => {
    res.json(sandbox.snapshot());
  });
  router.put('/state', (req, res) => {
    // GET /state answers in snake_case; the state file is camelCase: either reads back. Checked by restore (a
    // SnapshotError, 400, names the wrong field).
    sandbox.restore(toCamelCase(req.body) as StateSnapshot);
    res.status(204).end();
  });
  router.use(createWebhooksRouter(sandbox));
  router.use((req, res) => sendError(res, 'not_found', `No control route for ${req.method} /__sandbox${req.path}.`));
  router.use(controlErrorHandler);
  return router;
}

/** `GET /__sandbox/openapi.json`, with the server URL the client used (the texts of a few hosts kept). */
function openApiRoute(sandbox: Sandbox): RequestHandler {
  const openApi = new Map<string, string>();
  return (req, res) => {
    const serverUrl = `${req.protocol}://${req.get('host') ?? 'localhost'}${sandbox.basePath}`;
    let text = openApi.get(serverUrl);
    if (text === undefined) {
      text = JSON.stringify(createOpenApiDocument({ serverUrl, basePath: sandbox.basePath }), null, 2);
      if (openApi.size < 16) openApi.set(serverUrl, text);
    }
    res.type(JSON_CONTENT_TYPE).send(text);
  };
}

/** `GET /__sandbox/control/openapi.json`, with the control API's URL as the client reached it. */
function controlOpenApiRoute(): RequestHandler {
  const texts = new Map<string, string>();
  return (req, res) => {
    const serverUrl = `${req.protocol}://${req.get('host') ?? 'localhost'}/__sandbox`;
    let text = texts.get(serverUrl);
    if (text === undefined) {
      text = JSON.stringify(createControlOpenApiDocument({ serverUrl }), null, 2);
      if (texts.size < 16) texts.set(serverUrl, text);
    }
    res.type(JSON_CONTENT_TYPE).send(text);
  };
}

/** With a control token: every request after this shows it (header `X-Sandbox-Token` or `?token=`), compared in constant time. */
function requireControlToken(controlToken: string | undefined): RequestHandler {
  return (req, res, next): void => {
    if (controlToken === undefined) return next();
    const given = req.get('x-sandbox-token') ?? (typeof req.query.token === 'string' ? req.query.token : '');
    const a = Buffer.from(given);
    const b = Buffer.from(controlToken);
    if (a.length === b.length && timingSafeEqual(a, b)) return next();
    sendError(
      res,
      'invalid_api_key',
      'The control API needs the control token: send it in the X-Sandbox-Token header.',
    );
  };
}
