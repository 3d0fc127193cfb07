/**
 * Assertions for suites in any language: `POST /marks`, `POST /verify`, `GET /spend`, `GET /requests/summary`
 * (docs/guides/assertions.md). The same journal, marks and books as the library's matchers; on the wire a pattern's
 * `body`, `query` and `headers` name the fields to check (a body's other fields may be anything).
 */
import express from 'express';
import { diffEntry, nearMisses, traceSummary, type FieldDiff, type RequestPattern } from '../core/request-pattern.js';
import { countHolds } from '../core/request-pattern.js';
import type { Spend } from '../core/spend.js';
import { maskKeys } from '../core/mask.js';
import type { SandboxCore as Sandbox } from '../sandbox-types.js';
import { assertionQuery, controlBodies, parseInput } from '../schemas.js';
import { body } from './control-body.js';

/** JSON containment: an object matches when it has the expected fields (and maybe more); the rest compares exactly. */
function containsJson(actual: unknown, expected: unknown): boolean {
  if (expected === null || typeof expected !== 'object') return actual === expected;
  if (Array.isArray(expected))
    return (
      Array.isArray(actual) && actual.length === expected.length && expected.every((v, i) => containsJson(actual[i], v))
    );
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
  const record = actual as Record<string, unknown>;
  return Object.entries(expected).every(([k, v]) => Object.hasOwn(record, k) && containsJson(record[k], v));
}

const WIRE_FIELDS: Record<string, string> = { accountId: 'account_id', keyId: 'key_id' };

/** A value echoed in a diff, API keys masked (a pattern may quote one; the journal's side is masked already). */
function masked(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'string') return maskKeys(value);
  if (Array.isArray(value)) return value.map(masked);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [maskKeys(k), masked(v)]));
}

function diffJson(diffs: FieldDiff[]): Record<string, { expected: unknown; actual: unknown }> {
  const out: Record<string, { expected: unknown; actual: unknown }> = {};
  for (const d of diffs)
    out[WIRE_FIELDS[d.field] ?? d.field] = { expected: masked(d.expected), actual: masked(d.actual) };
  return out;
}

function spendJson(spend: Spend) {
  return {
    usd: spend.usd,
    charged_usd: spend.chargedUsd,
    held_usd: spend.heldUsd,
    refunded_usd: spend.refundedUsd,
    tokens: spend.tokens,
    tasks: spend.tasks,
    by_task: spend.byTask.map((t) => ({
      task_id: t.taskId,
      account_id: t.accountId,
      status: t.status,
      charged_usd: t.chargedUsd,
      held_usd: t.heldUsd,
      refunded_usd: t.refundedUsd,
      tokens: t.tokens,
    })),
  };
}

export function createAssertionsRouter(sandbox: Sandbox): express.Router {
  const router = express.Router();
  router.post('/marks', (req, res) => {
    const b = body(controlBodies.mark, req);
    res.status(201).json({ mark: sandbox.mark({ accountId: b.account_id, keyId: b.key_id }).id });
  });
  router.post('/verify', (req, res) => {
    const b = body(controlBodies.verify, req);
    const { account_id, key_id, ...rest } = b.pattern;
    const pattern: RequestPattern = { ...rest, accountId: account_id, keyId: key_id };
    const entries = sandbox.journal.entries({ since: b.since });
    const matched = entries.filter((e) => diffEntry(e, pattern, containsJson, sandbox.basePath).length === 0);
    const ok = countHolds(matched.length, b.count ?? {});
    const misses = ok || matched.length > 0 ? [] : nearMisses(entries, pattern, containsJson, sandbox.basePath);
    res.json({
      ok,
      matched: matched.length,
      near_misses: misses.map((m) => ({
        request_id: m.entry.id,
        diff: diffJson(m.diffs),
        trace: traceSummary(m.entry.trace),
      })),
    });
  });
  router.get('/spend', (req, res) => {
    const q = parseInput(assertionQuery, { ...req.query }, 'the query');
    res.json(spendJson(sandbox.spend({ since: q.since, accountId: q.account_id })));
  });
  router.get('/requests/summary', (req, res) => {
    const q = parseInput(assertionQuery, { ...req.query }, 'the query');
    res.json({ data: sandbox.journal.summary({ since: q.since, accountId: q.account_id }) });
  });
  return router;
}
