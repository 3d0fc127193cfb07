/**
 * The contract check: every answer the test suite gets must validate against the OpenAPI document the sandbox serves
 * (status listed for the operation, body schema, required headers and their formats).
 * On for one door with `withContract(door)`; on for the whole suite by default (`SANDBOX_CONTRACT=0` turns it off).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { createOpenApiDocument } from '../../src/core/openapi.js';
import { matchRoute, ROUTES } from '../../src/core/routes.js';
import type { Answer, Call, Door } from './doors.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const DOC_ID = 'openapi.json';
const doc = createOpenApiDocument() as any;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats(ajv);
ajv.addSchema({ ...doc, $id: DOC_ID });

const compiled = new Map<string, ValidateFunction>();
const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
function validatorAt(path: string): ValidateFunction {
  let v = compiled.get(path);
  if (!v) {
    v = ajv.compile({ $ref: `${DOC_ID}#/${path}` });
    compiled.set(path, v);
  }
  return v;
}
const resolve = (node: any): any =>
  node?.$ref
    ? node.$ref
        .slice(2)
        .split('/')
        .reduce((o: any, k: string) => o[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc)
    : node;

/** Codes of a request that matched no operation: the guards before the route, and 404. */
const UNMATCHED_STATUSES = ['400', '401', '404', '429', '500', '503'];

export class ContractError extends Error {
  override name = 'ContractError';
}

/** Throws a ContractError when an answer does not match the OpenAPI document. `path` is below the base path. */
export function checkAnswer(method: string, pathAndQuery: string, answer: Answer): void {
  if (method === 'OPTIONS' || method === 'HEAD') return;
  const where = `${method} ${pathAndQuery} → ${answer.status}`;
  const fail = (what: string) => {
    throw new ContractError(`Contract: ${where}: ${what}\n${answer.text.slice(0, 400)}`);
  };
  // Tests reach the control API through the door with paths like `/../../__sandbox/…`: not the API; the control
  // API's own document checks those (control-contract.ts, through the suite's fetch).
  const resolved = new URL(`http://x/api/v1${pathAndQuery}`).pathname;
  if (!resolved.startsWith('/api/v1/')) return;
  const path = resolved.slice('/api/v1'.length);
  const match = matchRoute(method, path);
  const operationId = match && Object.entries(ROUTES).find(([, r]) => r === match.route)![0];
  let responsePath: string;
  if (operationId) {
    const route = ROUTES[operationId as keyof typeof ROUTES];
    const [m, p] = route.endpoint.split(' ') as [string, string];
    const base = pointer('paths', p.replace(/:id\b/, '{id}'), m.toLowerCase(), 'responses');
    if (!doc.paths[p.replace(/:id\b/, '{id}')][m.toLowerCase()].responses[String(answer.status)])
      fail(`status ${answer.status} is not listed for ${operationId}`);
    responsePath = `${base}/${answer.status}`;
  } else {
    if (!UNMATCHED_STATUSES.includes(String(answer.status)))
      fail('an unmatched route answered a status outside the guards and 404');
    responsePath = pointer('components', 'schemas', 'Error');
  }
  const response = operationId
    ? responsePath.split('/').reduce((o: any, k) => o[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc)
    : { headers: doc.paths['/ext/usage'].get.responses['200'].headers };
  const contentType = answer.headers.get('content-type') ?? '';
  if (!contentType.startsWith('application/json')) fail(`Content-Type is "${contentType}", not application/json`);
  if (answer.json === undefined) fail('the body is not JSON');
  const validate = validatorAt(
    operationId ? `${responsePath}/content/${pointer('application/json')}/schema` : responsePath,
  );
  if (!validate(answer.json)) fail(`body: ${ajv.errorsText(validate.errors, { dataVar: 'body' })}`);
  const listedCodes =
    operationId && answer.status >= 400 ? Object.keys(response.content['application/json'].examples ?? {}) : undefined;
  if (listedCodes && !listedCodes.includes(answer.json.error.code))
    fail(`error.code ${answer.json.error.code} is not one of the codes of ${answer.status}: ${listedCodes.join(', ')}`);
  for (const [name, ref] of Object.entries(response.headers ?? {})) {
    const header = resolve(ref);
    const value = answer.headers.get(name);
    if (value === null) {
      if (header.required) fail(`the required header ${name} is missing`);
      continue;
    }
    const schema = header.schema;
    const parsed = schema.type === 'integer' ? (/^-?[0-9]+$/.test(value) ? Number(value) : value) : value;
    if (!ajv.validate(schema, parsed))
      fail(`header ${name}: "${value}" ${ajv.errorsText(ajv.errors, { dataVar: '' })}`);
  }
}

/** A call that checks every answer against the document. */
export function checkedCall(call: Call): Call {
  return async (method, path, options) => {
    const answer = await call(method, path, options);
    checkAnswer(method, path, answer);
    return answer;
  };
}

/** The same door, with every answer checked against the OpenAPI document. */
export function withContract<D extends Door>(door: D): D {
  return { ...door, call: checkedCall(door.call) };
}
