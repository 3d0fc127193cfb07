/** The control API's routes as data: what each takes and answers (control-openapi.ts builds the document from it). */
import type { controlBodies } from '../schemas.js';
import type { ControlAnswerName } from './control-schemas.js';

export type BodyName = keyof typeof controlBodies | 'StateSnapshot';

/** One control route: what it takes and what it answers. Paths are below `/__sandbox`, parameters as `{id}`. */
export interface ControlRoute {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  summary: string;
  /** The body schema (a name of `controlBodies`, or the state snapshot). */
  body?: BodyName;
  /** The answer's status and schema; no schema: an empty answer (204). */
  status?: number;
  answer?: ControlAnswerName;
  /** Query parameters the route reads. */
  query?: string[];
  /** Served without the control token (no secret in it). */
  open?: true;
}

const DELIVERY_FILTERS = ['account_id', 'endpoint_id', 'event_id', 'status'];
const REQUEST_FILTERS = ['method', 'path', 'status', 'code', 'key_id', 'account_id', 'scenario'];

/** Every route of the control API. */
export const CONTROL_ROUTES: ControlRoute[] = [
  { method: 'get', path: '/openapi.json', summary: 'The OpenAPI document of the API', answer: 'Document', open: true },
  {
    method: 'get',
    path: '/control/openapi.json',
    summary: 'This document: the OpenAPI document of the control API',
    answer: 'Document',
    open: true,
  },
  { method: 'get', path: '/overview', summary: 'Everything at once', answer: 'Overview', query: ['tasks', 'requests'] },
  { method: 'get', path: '/accounts', summary: 'List the accounts', answer: 'AccountList' },
  {
    method: 'post',
    path: '/accounts',
    summary: 'Create an account, with an admin key',
    body: 'accountCreate',
    status: 201,
    answer: 'CreatedAccount',
  },
  {
    method: 'patch',
    path: '/accounts/{id}',
    summary: "Change an account's plan, balance or limits",
    body: 'accountPatch',
    answer: 'Account',
  },
  { method: 'get', path: '/keys', summary: 'List the API keys', answer: 'KeyList' },
  { method: 'post', path: '/keys', summary: 'Mint an API key', body: 'keyCreate', status: 201, answer: 'CreatedKey' },
  { method: 'delete', path: '/keys/{id}', summary: 'Revoke a key (by id or by the key itself)' },
  { method: 'get', path: '/tasks', summary: 'List the tasks', answer: 'TaskList', query: ['account_id'] },
  {
    method: 'post',
    path: '/tasks/{id}/complete',
    summary: 'Complete a task now',
    body: 'taskComplete',
    answer: 'Task',
  },
  { method: 'post', path: '/tasks/{id}/fail', summary: 'Fail a task now', body: 'taskFail', answer: 'Task' },
  { method: 'get', path: '/clock', summary: "Read the sandbox's clock", answer: 'Clock' },
  { method: 'post', path: '/clock', summary: 'Advance or set the clock', body: 'clock', answer: 'Clock' },
  { method: 'post', path: '/scenarios', summary: 'Apply a scenario', body: 'scenario' },
  { method: 'delete', path: '/scenarios', summary: 'Clear scenarios', query: ['account_id', 'key_id', 'scope'] },
  { method: 'get', path: '/requests', summary: 'The request journal', answer: 'JournalList', query: REQUEST_FILTERS },
  { method: 'delete', path: '/requests', summary: 'Empty the request journal' },
  {
    method: 'get',
    path: '/requests/summary',
    summary: "The journal's summary for a snapshot test",
    answer: 'RequestSummary',
    query: ['since', 'account_id'],
  },
  { method: 'get', path: '/requests/{id}', summary: 'One request of the journal', answer: 'JournalEntry' },
  {
    method: 'post',
    path: '/marks',
    summary: 'Mark the journal and the books',
    body: 'mark',
    status: 201,
    answer: 'Mark',
  },
  {
    method: 'post',
    path: '/verify',
    summary: 'Count the requests that match a pattern',
    body: 'verify',
    answer: 'Verify',
  },
  {
    method: 'get',
    path: '/spend',
    summary: 'What tasks cost since a mark',
    answer: 'Spend',
    query: ['since', 'account_id'],
  },
  {
    method: 'post',
    path: '/webhooks/trigger',
    summary: 'Send an event built from the current state to the account’s endpoints',
    body: 'webhookTrigger',
    answer: 'DeliveryList',
  },
  { method: 'get', path: '/audit', summary: 'The integration audit', answer: 'AuditList', query: ['account_id'] },
  { method: 'post', path: '/reset', summary: 'Back to the initial state' },
  { method: 'get', path: '/state', summary: 'A snapshot of the whole state', answer: 'StateSnapshot' },
  { method: 'put', path: '/state', summary: 'Restore a snapshot', body: 'StateSnapshot' },
  {
    method: 'post',
    path: '/accounts/{id}/webhooks',
    summary: 'Register a webhook endpoint',
    body: 'webhookAdd',
    status: 201,
    answer: 'WebhookEndpoint',
  },
  {
    method: 'get',
    path: '/accounts/{id}/webhooks',
    summary: "An account's webhook endpoints",
    answer: 'WebhookEndpointList',
  },
  {
    method: 'get',
    path: '/webhooks',
    summary: 'Webhook endpoints',
    answer: 'WebhookEndpointList',
    query: ['account_id'],
  },
  { method: 'delete', path: '/webhooks/{id}', summary: 'Remove a webhook endpoint' },
  {
    method: 'get',
    path: '/webhooks/deliveries',
    summary: 'The webhook delivery journal',
    answer: 'DeliveryList',
    query: DELIVERY_FILTERS,
  },
  {
    method: 'post',
    path: '/webhooks/deliveries/{id}/replay',
    summary: 'Send a delivery again',
    status: 201,
    answer: 'Delivery',
  },
  {
    method: 'post',
    path: '/webhooks/test',
    summary: 'Send a sample event',
    body: 'webhookTest',
    answer: 'DeliveryList',
  },
  { method: 'post', path: '/webhooks/flush', summary: 'Wait for the pending deliveries' },
  {
    method: 'get',
    path: '/inspector/live',
    summary: "The inspector page's poll",
    answer: 'InspectorLive',
    query: ['charts'],
  },
  { method: 'get', path: '/inspector/requests/{ref}', summary: 'One request, by id or number', answer: 'JournalEntry' },
];
