/**
 * The control API's answers as zod schemas, in their wire casing (snake_case): the control API's OpenAPI document is
 * generated from them and from the body schemas (src/schemas.ts), and the test suite holds every control answer to
 * them. Built on first use, never on the request path.
 */
import { z } from 'zod';
import { TaskSchema } from '../core/view-schemas.js';
import { lazy } from '../model/lazy.js';
import { PLAN_IDS, type PlanId } from '../model/plans.js';
import { SCOPES, type Scope } from '../model/scopes.js';
import { snapshotRestSchema } from '../model/snapshot-schema.js';

const timestamp = z.iso.datetime().describe('ISO 8601 UTC timestamp, sandbox clock');
const count = z.number().int().nonnegative();
const listOf = <T extends z.ZodType>(item: T, what: string) =>
  z.strictObject({ data: z.array(item) }).describe(`{ data: [...] }: ${what}`);

const records = lazy(() => {
  const account = z
    .strictObject({
      id: z.string(),
      name: z.string(),
      plan: z.enum(PLAN_IDS as [PlanId, ...PlanId[]]),
      balance_usd: z.number(),
      held_usd: z.number().describe('Credits held by tasks still running.'),
      limits: z.strictObject({ rpm: count, tpm: count }),
      period_start: timestamp,
      period_end: timestamp,
    })
    .describe('An account.');
  const createdKey = z.strictObject({
    id: z.string(),
    key: z.string().describe('The API key itself (`ak_…`): send it as `Authorization: Bearer`.'),
    account_id: z.string(),
    scopes: z.array(z.enum(SCOPES as unknown as [Scope, ...Scope[]])),
  });
  const key = createdKey.extend({ label: z.string(), revoked: z.boolean() }).describe('An API key.');
  const clock = z.strictObject({ now: timestamp, mode: z.enum(['real', 'manual']) }).describe("The sandbox's clock.");
  return { account, createdKey, key, clock };
});

const journal = lazy(() => {
  const traceStep = z.strictObject({
    step: z.string(),
    outcome: z.enum(['pass', 'fail', 'skip', 'applied']),
    detail: z.string(),
    figures: z.record(z.string(), z.union([z.number(), z.string(), z.boolean(), z.null()])).optional(),
  });
  const message = z.strictObject({ headers: z.record(z.string(), z.string()), body: z.string() });
  const journalEntry = z
    .strictObject({
      id: z.string().describe('`req_…`'),
      seq: count,
      time: timestamp,
      method: z.string(),
      path: z.string(),
      status: z.number().int(),
      code: z.string().nullable().describe('`error.code` of an error answer, else null.'),
      key_id: z.string().nullable(),
      account_id: z.string().nullable(),
      scenarios: z.array(z.string()),
      latency_ms: z
        .number()
        .nonnegative()
        .describe("Milliseconds the sandbox held the answer before sending it (a `latency` scenario's delay)."),
      trace: z.array(traceStep).describe('The steps that decided the answer, in order.'),
      request: message.describe('What was sent (keys masked, body cut at 16 KiB).'),
      response: message.nullable(),
    })
    .describe('One request of the journal.');
  const finding = z
    .strictObject({
      rule: z.string(),
      severity: z.enum(['error', 'warning', 'info']),
      count: count,
      first_request_id: z.string(),
      last_request_id: z.string(),
      fix: z.string(),
      account_id: z.string().nullable(),
      requests: z
        .array(
          z.strictObject({ request_id: z.string(), method: z.string(), path: z.string(), status: z.number().int() }),
        )
        .describe('The first requests that matched (up to five), as the client sent them and saw the answer.'),
      duplicate_task_ids: z
        .array(z.array(z.string()))
        .optional()
        .describe('`unsafe-post-retry`: each group is a task, then the tasks its retries created again.'),
      duplicate_usd: z.number().optional().describe('`unsafe-post-retry`: what the duplicates hold or were charged.'),
    })
    .describe('A finding of the integration audit.');
  return { journalEntry, finding };
});

const webhooks = lazy(() => {
  const endpoint = z
    .strictObject({
      id: z.string(),
      account_id: z.string(),
      url: z.string().nullable(),
      secret: z.string().describe('`whsec_…`: give it to your receiver to verify signatures.'),
      created_at: timestamp,
    })
    .describe('A webhook endpoint.');
  const attempt = z.strictObject({
    at: timestamp,
    status: z.number().int().nullable(),
    latency_ms: z.number(),
    error: z.string().nullable(),
    response: z.string().nullable(),
    duplicate: z.boolean(),
    headers: z
      .record(z.string(), z.string())
      .optional()
      .describe('The headers sent (Standard Webhooks `webhook-*` and content type); never the secret.'),
  });
  const delivery = z
    .strictObject({
      id: z.string(),
      event_id: z.string(),
      event_type: z.string(),
      endpoint_id: z.string(),
      account_id: z.string(),
      url: z.string().nullable(),
      status: z.enum(['pending', 'succeeded', 'failed']),
      attempts: z.array(attempt),
      next_attempt_at: timestamp.nullable(),
      replay_of: z.string().nullable(),
      scenario: z
        .string()
        .nullable()
        .describe('The webhook scenario that spoiled the delivery (several joined by `, `), or null.'),
      created_at: timestamp,
      event: z.looseObject({ id: z.string(), type: z.string(), created_at: timestamp, data: z.looseObject({}) }),
    })
    .describe('One webhook message to one endpoint, with its attempts.');
  return { endpoint, delivery };
});

/** The answers of the assertion routes: marks, verify, spend and the journal's summary. */
function assertionAnswers() {
  const usd = z.number();
  const taskSpend = z.strictObject({
    task_id: z.string(),
    account_id: z.string(),
    status: z.string(),
    charged_usd: usd,
    held_usd: usd,
    refunded_usd: usd,
    tokens: count,
  });
  return {
    Mark: z.strictObject({ mark: z.string().describe('`mark_…`: pass it as `since`.') }).describe('A new mark.'),
    Verify: z
      .strictObject({
        ok: z.boolean(),
        matched: count,
        near_misses: z.array(
          z.strictObject({
            request_id: z.string(),
            diff: z.record(z.string(), z.strictObject({ expected: z.unknown(), actual: z.unknown() })),
            trace: z.string(),
          }),
        ),
      })
      .describe('Whether the requests since the mark match the pattern the number of times asked.'),
    Spend: z
      .strictObject({
        usd: usd.describe('Charged plus still held, for the tasks created since the mark.'),
        charged_usd: usd,
        held_usd: usd,
        refunded_usd: usd,
        tokens: count,
        tasks: count,
        by_task: z.array(taskSpend),
      })
      .describe('What the tasks created since the mark cost.'),
    RequestSummary: listOf(
      z.looseObject({ method: z.string(), path: z.string(), status: z.number().int() }),
      'method, path template and status of each request: ids normalised, secrets masked, no times',
    ),
  };
}

/** The answers, by the names the OpenAPI document gives them. */
export const controlAnswerSchemas = lazy(() => {
  const { account, createdKey, key, clock } = records();
  const { journalEntry, finding } = journal();
  const { endpoint, delivery } = webhooks();
  const overview = z
    .looseObject({
      version: z.string(),
      now: timestamp,
      clock: z.enum(['real', 'manual']),
      accounts: z.array(account.extend({ rate_window: z.looseObject({}) }).loose()),
      keys: z.array(key.omit({ scopes: true }).extend({ scopes: z.array(z.string()) })),
      agents: z.array(z.looseObject({ id: z.string() })),
      tasks: z.array(z.looseObject({ id: z.string(), account_id: z.string() })),
      task_count: count,
      request_count: count,
      requests: z.array(journalEntry),
      scenarios: z.array(z.looseObject({ name: z.string() })),
    })
    .describe('Everything the inspector shows in one read.');
  const live = z
    .looseObject({
      version: z.string(),
      now: timestamp,
      clock: z.enum(['real', 'manual']),
      requests: z.array(z.looseObject({ id: z.string() })).describe('Summaries: no trace, headers or bodies.'),
      webhooks: z.array(z.looseObject({ id: z.string() })),
      deliveries: z.array(delivery),
    })
    .describe('What the inspector page polls.');
  const error = z
    .strictObject({ error: z.strictObject({ code: z.string(), message: z.string() }) })
    .describe('Every error answer has this shape.');
  return {
    Account: account,
    AccountList: listOf(account, 'every account'),
    CreatedAccount: account.extend({ key: createdKey }).describe('The new account and its admin key.'),
    CreatedKey: createdKey.describe('The new key.'),
    KeyList: listOf(key, 'every key'),
    Task: TaskSchema,
    TaskList: listOf(TaskSchema, 'the tasks, oldest first'),
    Clock: clock,
    JournalEntry: journalEntry,
    JournalList: listOf(journalEntry, 'the journal, oldest first'),
    AuditList: listOf(finding, 'the findings of the integration audit'),
    WebhookEndpoint: endpoint,
    WebhookEndpointList: listOf(endpoint, 'the webhook endpoints'),
    Delivery: delivery,
    DeliveryList: listOf(delivery, 'the webhook deliveries, oldest first'),
    Overview: overview,
    InspectorLive: live,
    Document: z.looseObject({ openapi: z.string() }).describe('An OpenAPI 3.1 document.'),
    ...assertionAnswers(),
    Error: error,
  };
});

/** The names of the answer schemas: a route of the control table names its answer by one of them. */
export type ControlAnswerName = keyof ReturnType<typeof controlAnswerSchemas> | 'StateSnapshot';

/**
 * The state snapshot on the wire: the schema `restore()` reads (model/snapshot-schema.ts) with its field names in
 * snake_case, as `GET /__sandbox/state` answers it. `rename` is the wire's key casing (wire-case.ts).
 */
export function stateSnapshotJsonSchema(rename: (key: string) => string): Record<string, unknown> {
  const schema: Record<string, unknown> = z.toJSONSchema(snapshotRestSchema(), {
    target: 'draft-2020-12',
    io: 'input',
  });
  delete schema.$schema;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
      if (k === 'properties')
        out[k] = Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([p, s]) => [rename(p), walk(s)]));
      else if (k === 'required') out[k] = (v as string[]).map(rename);
      else out[k] = walk(v);
    }
    return out;
  };
  return {
    ...(walk(schema) as Record<string, unknown>),
    description: 'A state snapshot: what `PUT /__sandbox/state` restores (either casing is read back).',
  };
}
