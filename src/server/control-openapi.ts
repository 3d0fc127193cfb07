/**
 * The OpenAPI 3.1 document of the control API (`GET /__sandbox/control/openapi.json`), generated from the schemas
 * that check the control bodies (src/schemas.ts) and the answer schemas (control-schemas.ts). A route is one row of
 * `CONTROL_ROUTES` (control-routes.ts): method, path, body, answer.
 */
import { z } from 'zod';
import { documentHead } from '../core/openapi.js';
import { controlBodies } from '../schemas.js';
import { controlAnswerSchemas, stateSnapshotJsonSchema } from './control-schemas.js';
import { CONTROL_ROUTES, type BodyName, type ControlRoute } from './control-routes.js';
import { snakeKey } from './wire-case.js';

/** The errors of the control API: code → status (the body is always `{ "error": { "code", "message" } }`). */
const CONTROL_ERRORS = {
  invalid_request: 400,
  invalid_api_key: 401,
  insufficient_scope: 403,
  not_found: 404,
  request_too_large: 413,
  unsupported_media_type: 415,
  internal_error: 500,
  service_unavailable: 503,
} as const;
type ControlErrorCode = keyof typeof CONTROL_ERRORS;

const ERROR_TEXT: Record<ControlErrorCode, string> = {
  invalid_request: 'a body or query the schema refuses, or a body that is not JSON or nested too deep',
  invalid_api_key: 'the control token is missing or wrong (only when the sandbox has one)',
  insufficient_scope: 'a cross-origin request, a foreign Host on a loopback bind, or a webhook message of the sandbox',
  not_found: 'no such record or route',
  request_too_large: 'a body over 5 MiB',
  unsupported_media_type: 'a body that is not `application/json`',
  internal_error: 'a fault of the sandbox',
  service_unavailable: 'a write refused because `--state-sync always` could not save it (with `Retry-After`)',
};

/** The codes a route can answer. */
function errorsOf(route: ControlRoute): ControlErrorCode[] {
  if (route.open) return ['insufficient_scope', 'internal_error'];
  const all = Object.keys(CONTROL_ERRORS) as ControlErrorCode[];
  // A record named in the path, or a route whose body names one, can be missing.
  const mayMiss = route.path.includes('{') || route.body !== undefined;
  // Only a write can fail to be saved.
  return all.filter((c) => (c !== 'not_found' || mayMiss) && (c !== 'service_unavailable' || route.method !== 'get'));
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const out: Record<string, unknown> = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' });
  delete out.$schema;
  return out;
}

function schemas(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(controlAnswerSchemas())) out[name] = jsonSchemaOf(schema, 'output');
  for (const route of CONTROL_ROUTES) {
    if (route.body === undefined || route.body === 'StateSnapshot') continue;
    out[bodyName(route.body)] = jsonSchemaOf(controlBodies[route.body], 'input');
  }
  out.StateSnapshot = stateSnapshotJsonSchema(snakeKey);
  return out;
}

const bodyName = (name: BodyName) => `${name.charAt(0).toUpperCase()}${name.slice(1)}Body`;

function operationOf(route: ControlRoute): Record<string, unknown> {
  const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query = (route.query ?? []).map((name) => ({ name, in: 'query', required: false, schema: { type: 'string' } }));
  const status = String(route.status ?? (route.answer ? 200 : 204));
  const success = route.answer
    ? { description: route.summary, content: { 'application/json': { schema: ref(route.answer) } } }
    : { description: `${route.summary}: done, no body.` };
  const byStatus = new Map<number, ControlErrorCode[]>();
  for (const code of errorsOf(route))
    byStatus.set(CONTROL_ERRORS[code], [...(byStatus.get(CONTROL_ERRORS[code]) ?? []), code]);
  const errors = Object.fromEntries(
    [...byStatus].map(([s, codes]) => [
      String(s),
      {
        description: codes.map((c) => `\`${c}\`: ${ERROR_TEXT[c]}`).join(' '),
        content: {
          'application/json': {
            schema: ref('Error'),
            examples: Object.fromEntries(
              codes.map((c) => [c, { value: { error: { code: c, message: ERROR_TEXT[c] } } }]),
            ),
          },
        },
      },
    ]),
  );
  const bodyRequired = route.body === 'StateSnapshot' || (route.body !== undefined && !acceptsEmpty(route.body));
  return {
    operationId: operationId(route),
    summary: route.summary,
    tags: [route.path.split('/')[1]],
    ...(route.open ? { security: [] } : {}),
    parameters: [...params, ...query],
    ...(route.body
      ? {
          requestBody: {
            required: bodyRequired,
            content: {
              'application/json': {
                schema: ref(route.body === 'StateSnapshot' ? 'StateSnapshot' : bodyName(route.body)),
              },
            },
          },
        }
      : {}),
    responses: { [status]: success, ...errors },
  };
}

/** `get /accounts/{id}/webhooks` → `getAccountsByIdWebhooks`. */
const operationId = (route: ControlRoute) =>
  route.method +
  route.path
    .replace(/\{(\w+)\}/g, 'by/$1')
    .split(/[^A-Za-z0-9]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/** A body whose fields are all optional may be left out: it reads as `{}`. */
const acceptsEmpty = (name: keyof typeof controlBodies) => controlBodies[name].safeParse({}).success;

/**
 * The OpenAPI 3.1 document of the control API. `serverUrl`: the control API's URL, e.g.
 * `http://127.0.0.1:4747/__sandbox` (default `/__sandbox`).
 */
export function createControlOpenApiDocument(options: { serverUrl?: string } = {}): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of CONTROL_ROUTES) (paths[route.path] ??= {})[route.method] = operationOf(route);
  return {
    ...documentHead(
      'agent-work-sandbox control API',
      'The control API of agent-work-sandbox under `/__sandbox`: no API key, no rate limit, not counted in usage. Every field is snake_case; every error is `{ "error": { "code", "message" } }`.',
    ),
    servers: [{ url: options.serverUrl ?? '/__sandbox' }],
    // The control token is asked for only when the sandbox has one (`--control-token`, or a non-loopback host).
    security: [{}, { controlToken: [] }],
    paths,
    components: {
      securitySchemes: {
        controlToken: { type: 'apiKey', in: 'header', name: 'X-Sandbox-Token', description: 'The control token.' },
      },
      schemas: schemas(),
    },
  };
}

export { CONTROL_ROUTES };
