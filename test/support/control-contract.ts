/**
 * The control API's contract check: every control answer the suite gets validates against the control API's OpenAPI
 * document (status listed for the route, body schema), and carries no camelCase key. On for every `fetch` of the
 * suite (control-contract-setup.ts) and for the doors' calls (contract.ts); `SANDBOX_CONTRACT=0` turns it off.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { CONTROL_ROUTES, createControlOpenApiDocument } from '../../src/server/control-openapi.js';
import { ContractError } from './contract.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const DOC_ID = 'control-openapi.json';

interface Checker {
  doc: any;
  ajv: Ajv2020;
  compiled: Map<string, ValidateFunction>;
  routes: { method: string; path: string; pattern: RegExp }[];
}
let checker: Checker | undefined;

/** Built on the first control answer: a test file that never reads the control API pays nothing. */
function load(): Checker {
  if (checker) return checker;
  const doc = createControlOpenApiDocument() as any;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID });
  const routes = CONTROL_ROUTES.map((r) => ({
    method: r.method,
    path: r.path,
    pattern: new RegExp(`^${r.path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`),
  }));
  checker = { doc, ajv, compiled: new Map(), routes };
  return checker;
}

function validatorAt(c: Checker, pointer: string): ValidateFunction {
  let v = c.compiled.get(pointer);
  if (!v) {
    v = c.ajv.compile({ $ref: `${DOC_ID}#/${pointer}` });
    c.compiled.set(pointer, v);
  }
  return v;
}
const escape = (p: string) => p.replace(/~/g, '~0').replace(/\//g, '~1');

/** Keys written camelCase (`keyId`), anywhere in a value but a task's own `result`. */
export function camelCaseKeys(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => camelCaseKeys(v, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [
    ...(/^[a-z][a-z0-9]*[A-Z]/.test(k) ? [`${at}.${k}`] : []),
    ...(k === 'result' ? [] : camelCaseKeys(v, `${at}.${k}`)),
  ]);
}

/** The route of a control path (below `/__sandbox`), or undefined. */
function controlRouteOf(method: string, path: string): { method: string; path: string } | undefined {
  return load().routes.find((r) => r.method === method.toLowerCase() && r.pattern.test(path));
}

/**
 * Throws a ContractError when a control answer breaks the control API's document. `pathname` starts with
 * `/__sandbox`; `text` is the body as received.
 */
export function checkControlAnswer(
  method: string,
  pathname: string,
  answer: { status: number; headers: Headers; text: string },
): void {
  if (method === 'OPTIONS' || method === 'HEAD' || answer.status === 304) return;
  const path = pathname.slice('/__sandbox'.length);
  const where = `${method} /__sandbox${path} → ${answer.status}`;
  const fail = (what: string): never => {
    throw new ContractError(`Control contract: ${where}: ${what}\n${answer.text.slice(0, 400)}`);
  };
  const c = load();
  const route = controlRouteOf(method, path);
  const json = answer.headers.get('content-type')?.startsWith('application/json');
  // The inspector's page and its assets are not the control API.
  if (!route && answer.status < 400 && !json) return;
  let pointer = 'components/schemas/Error';
  if (route) {
    const responses = c.doc.paths[route.path][route.method].responses;
    if (!responses[String(answer.status)])
      fail(`status ${answer.status} is not listed for ${route.method} ${route.path}`);
    if (answer.status === 204) return void (answer.text === '' || fail('a 204 with a body'));
    const base = ['paths', escape(route.path), route.method, 'responses', String(answer.status)].join('/');
    pointer = `${base}/content/${escape('application/json')}/schema`;
  } else if (answer.status < 400) fail('a success from a route the document does not list');
  if (!json) fail('the answer is not application/json');
  const body = JSON.parse(answer.text) as unknown;
  const validate = validatorAt(c, pointer);
  if (!validate(body)) fail(`body: ${c.ajv.errorsText(validate.errors, { dataVar: 'body' })}`);
  if (!route?.path.endsWith('openapi.json')) {
    const camel = camelCaseKeys(body);
    if (camel.length > 0) fail(`camelCase keys on the wire: ${camel.slice(0, 5).join(', ')}`);
  }
}
