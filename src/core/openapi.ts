import { z } from 'zod';
import { version } from '../../package.json';
import { MAX_PAGE_LIMIT, DEFAULT_PAGE_LIMIT } from './paging.js';
import { ROUTES } from './routes.js';
import {
  AgentListSchema,
  AgentSchema,
  ErrorSchema,
  TaskResultSchema,
  TaskSchema,
  UsageSchema,
} from './view-schemas.js';
import { WebhookAccountSchema, WebhookCreditsLowEventSchema, WebhookTaskEventSchema } from './webhook-schemas.js';
import { WEBHOOK_HEADER_PARAMETERS, webhooksSection } from './openapi-webhooks.js';
import { taskBodySchema, MAX_BODY_BYTES } from '../rules/task-body.js';
import { ERRORS, type ErrorCode } from '../rules/errors.js';
import { SCENARIO_NAMES } from '../scenarios/catalog.js';
import { SCOPES } from '../model/scopes.js';

type OperationId = keyof typeof ROUTES;

/** What each operation answers on success, and the error codes it can give beyond those every request can. */
const OPERATIONS: Record<OperationId, { summary: string; status: number; schema: string; errors: ErrorCode[] }> = {
  listAgents: { summary: 'List all available agents', status: 200, schema: 'AgentList', errors: ['invalid_request'] },
  getAgent: { summary: 'Detailed information of one agent', status: 200, schema: 'Agent', errors: ['not_found'] },
  createTask: {
    summary: 'Create a task for an agent',
    status: 201,
    schema: 'Task',
    errors: ['invalid_request', 'insufficient_credits', 'not_found', 'request_too_large'],
  },
  getTask: { summary: 'Status and results of one task', status: 200, schema: 'Task', errors: ['not_found'] },
  getUsage: { summary: 'API usage statistics', status: 200, schema: 'Usage', errors: [] },
};

/** Codes any request under the base path can answer with (key, rate, scope, `X-Sandbox-Scenario`, scenarios). */
const EVERY_REQUEST: ErrorCode[] = [
  'missing_api_key',
  'invalid_api_key',
  'insufficient_scope',
  'rate_limit_exceeded',
  'invalid_request',
  'internal_error',
  'service_unavailable',
];

const RATE_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
  'X-Sandbox-Request-Id': { $ref: '#/components/headers/X-Sandbox-Request-Id' },
};

function schemas(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  const named = {
    Agent: AgentSchema,
    AgentList: AgentListSchema,
    Task: TaskSchema,
    TaskResult: TaskResultSchema,
    Usage: UsageSchema,
    Error: ErrorSchema,
    WebhookAccount: WebhookAccountSchema,
    WebhookTaskEvent: WebhookTaskEventSchema,
    WebhookCreditsLowEvent: WebhookCreditsLowEventSchema,
  };
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const out = z.toJSONSchema(registry, { target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` }).schemas;
  // The request body is read as input: optional fields stay optional and unknown fields are allowed (they are ignored).
  const body = z.toJSONSchema(taskBodySchema(), { target: 'draft-2020-12', io: 'input' });
  const all: Record<string, Record<string, unknown>> = {
    ...out,
    TaskBody: {
      ...body,
      description: 'The body of POST /ext/tasks. Unknown fields are ignored; `model` is a sandbox extension.',
    },
  };
  for (const schema of Object.values(all)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return all;
}

function errorResponses(codes: ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERRORS[code].status, [...(byStatus.get(ERRORS[code].status) ?? []), code]);
  const out: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const retry =
      status === 429 || status === 503 ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {};
    out[String(status)] = {
      // The codes of this status: in the description, and one example each (a client's code generator sees them).
      description: list.map((c) => `\`${c}\`: ${ERRORS[c].message}`).join(' '),
      headers: { ...RATE_HEADERS, ...retry },
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/Error' },
          examples: Object.fromEntries(
            list.map((c) => [c, { value: { error: { code: c, message: ERRORS[c].message } } }]),
          ),
        },
      },
    };
  }
  return out;
}

export interface OpenApiOptions {
  /** The server URL to list, e.g. `http://127.0.0.1:4747/api/v1`. Default: the base path alone. */
  serverUrl?: string;
  /** Default `/api/v1`. */
  basePath?: string;
}

/**
 * The OpenAPI 3.1 document of the API as the sandbox serves it, generated from the schemas the sandbox validates
 * with (`TaskBodySchema`) and the view schemas, the route table and the error catalogue.
 */
export function createOpenApiDocument(options: OpenApiOptions = {}): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [operationId, route] of Object.entries(ROUTES) as [OperationId, (typeof ROUTES)[OperationId]][]) {
    const [method, path] = route.endpoint.split(' ') as [string, string];
    (paths[path.replace(/:id\b/, '{id}')] ??= {})[method.toLowerCase()] = operationOf(operationId, route, path);
  }
  return document(paths, options);
}

/** The OpenAPI operation of one route. */
function operationOf(
  operationId: OperationId,
  route: (typeof ROUTES)[OperationId],
  path: string,
): Record<string, unknown> {
  const op = OPERATIONS[operationId];
  const parameters: unknown[] = [];
  if (path.includes(':id'))
    parameters.push({
      name: 'id',
      in: 'path',
      required: true,
      schema: { type: 'string' },
      description: operationId === 'getAgent' ? 'Agent identifier.' : 'Task identifier.',
    });
  if (operationId === 'listAgents') {
    parameters.push(
      {
        name: 'limit',
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT, default: DEFAULT_PAGE_LIMIT },
        description: 'Page size.',
      },
      {
        name: 'cursor',
        in: 'query',
        required: false,
        schema: { type: 'string', minLength: 1 },
        description: 'The `next_cursor` of the previous page.',
      },
    );
  }
  if (operationId === 'createTask') {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
      description:
        'Sandbox extension: the same key and body within 24 h return the first task (with `Idempotent-Replayed: true`) and charge once.',
    });
  }
  parameters.push({ $ref: '#/components/parameters/X-Sandbox-Scenario' });
  const successHeaders: Record<string, unknown> = { ...RATE_HEADERS };
  if (operationId === 'createTask') {
    successHeaders.Location = { description: 'The path of the created task.', schema: { type: 'string' } };
    successHeaders['Idempotent-Replayed'] = {
      description: '`true` when the answer is the replay of an earlier request with the same Idempotency-Key.',
      schema: { type: 'string', enum: ['true'] },
    };
  }
  const operation: Record<string, unknown> = {
    operationId,
    summary: op.summary,
    description: `Requires the scope \`${route.scope}\` (or \`admin\`).`,
    tags: [path.split('/')[2]],
    'x-required-scope': route.scope,
    parameters,
    responses: {
      [String(op.status)]: {
        description: op.summary.replace(/^\w+ /, ''),
        headers: successHeaders,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${op.schema}` } } },
      },
      ...errorResponses([...new Set([...EVERY_REQUEST, ...op.errors])]),
    },
  };
  if (operationId === 'createTask') {
    operation.requestBody = {
      required: true,
      description: `JSON, at most ${MAX_BODY_BYTES} bytes.`,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/TaskBody' } } },
    };
  }
  return operation;
}

/** The start of an OpenAPI 3.1 document of the sandbox (the API's, the control API's). */
export function documentHead(title: string, description: string) {
  return { openapi: '3.1.0', info: { title, version, license: { name: 'MIT', identifier: 'MIT' }, description } };
}

/** The document around the paths. */
function document(paths: Record<string, Record<string, unknown>>, options: OpenApiOptions): Record<string, unknown> {
  return {
    ...documentHead(
      'Agent Work Service API (agent-work-sandbox)',
      'The external API of the Agent Work Service as agent-work-sandbox serves it. Every response carries the X-RateLimit-* headers; every error has the shape `{ "error": { "code", "message" } }`.',
    ),
    servers: [{ url: options.serverUrl ?? options.basePath ?? '/api/v1' }],
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'agents', description: 'The catalog of AI agents.' },
      { name: 'tasks', description: 'Work sent to an agent: status and results.' },
      { name: 'usage', description: "The account's usage in the current billing period." },
      { name: 'webhooks', description: 'Signed events sent to your endpoints (Pro and Enterprise).' },
    ],
    paths,
    webhooks: webhooksSection(),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'ak_<API_KEY_BODY>',
          description: `An API key, \`Authorization: Bearer ak_…\`. Scopes: ${SCOPES.join(', ')}; \`admin\` grants every endpoint.`,
        },
      },
      schemas: schemas(),
      headers: {
        'X-RateLimit-Limit': {
          required: true,
          description: 'Request limit of the window (integer).',
          schema: { type: 'integer', minimum: 0 },
        },
        'X-RateLimit-Remaining': {
          required: true,
          description: 'Requests remaining in the window (integer).',
          schema: { type: 'integer', minimum: 0 },
        },
        'X-RateLimit-Reset': {
          required: true,
          description: 'Time of reset, ISO 8601 UTC timestamp.',
          schema: { type: 'string', format: 'date-time' },
        },
        'Retry-After': {
          required: false,
          description: 'Seconds to wait before retrying (RFC 9110).',
          schema: { type: 'integer', minimum: 1 },
        },
        'X-Sandbox-Request-Id': {
          required: false,
          description:
            "Sandbox extension, on every answer: the journal's id of this request (`req_…`), for `GET /__sandbox/requests/{id}` and the inspector's search.",
          schema: { type: 'string', pattern: '^req_[0-9]+$' },
        },
      },
      parameters: {
        'X-Sandbox-Scenario': {
          name: 'X-Sandbox-Scenario',
          in: 'header',
          required: false,
          description:
            'Sandbox only: a scenario of the catalogue to apply to this request (several may be given, comma-separated). An unknown name answers 400 invalid_request.',
          // Neutral examples: a client or a generator that tries them gets slower answers, not injected faults.
          schema: { type: 'string', enum: [...SCENARIO_NAMES], examples: ['latency', 'slow-tasks'] },
        },
        ...WEBHOOK_HEADER_PARAMETERS,
      },
    },
  };
}
