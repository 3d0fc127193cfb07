/**
 * agent-work-sandbox: a local sandbox of the Agent Work Service API.
 * Runtime-neutral: nothing here imports from `node:`; `sandbox.listen()` loads the Node server on demand.
 */
import type { RequestHandler } from 'msw';
import { createHandlers } from './http/handlers.js';
import { createFetch, type SandboxFetch } from './http/fetch-door.js';
import { createSandboxCore } from './sandbox.js';
import type { SandboxCore, SandboxOptions } from './sandbox-types.js';

/** A sandbox with its msw door. */
export interface Sandbox extends SandboxCore {
  /** MSW request handlers serving the API (for `setupServer` / `setupWorker`). */
  readonly handlers: RequestHandler[];
  /**
   * A standard `fetch` answering from the sandbox directly (no msw, no global patching): pass it to a client that
   * takes a custom fetch. Same answers as `handlers`; a URL outside the base URL rejects with a TypeError.
   */
  readonly fetch: SandboxFetch;
}

/**
 * Creates a sandbox of the Agent Work Service API: its own state, clock, scenarios and msw handlers.
 * @example
 * const sandbox = createSandbox({ clock: 'manual' })
 * const server = setupServer(...sandbox.handlers)
 * server.listen({ onUnhandledRequest: 'error' })
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const core = createSandboxCore(options);
  return Object.assign(core, {
    handlers: createHandlers((req) => core.handle(req), options.baseUrl, options.handlers),
    fetch: createFetch((req) => core.handle(req), options.baseUrl, options.handlers),
  });
}

export { createSandboxCore };
export type {
  SandboxCore,
  SandboxOptions,
  ScenarioSpec,
  CreatedKey,
  AccountView,
  TaskView,
  ListenOptions,
  RunningServer,
} from './sandbox-types.js';
export type { FixtureSetName } from './model/fixture-sets.js';
export {
  SandboxError,
  ApiError,
  FixtureError,
  ClockError,
  SnapshotError,
  ScenarioError,
  StartError,
  StateFileError,
  UsageError,
  WebhookTimeoutError,
  type SandboxErrorCode,
} from './errors.js';
export { ERRORS, ERROR_CODES, API_DOC_ERROR_CODES, type ErrorCode } from './rules/errors.js';
export { PLANS, PLAN_IDS, type Plan, type PlanId } from './model/plans.js';
export { MODELS, MODEL_IDS, DEFAULT_MODEL, type Model, type ModelId } from './model/models.js';
export { SCOPES, type Scope } from './model/scopes.js';
export { PRIORITIES, TASK_STATUSES, ENDPOINTS, type Priority, type TaskStatus, type Endpoint } from './model/types.js';
export {
  SCENARIOS,
  SCENARIO_NAMES,
  API_SCENARIO_NAMES,
  type Scenario,
  type ScenarioName,
  type ScenarioOptions,
} from './scenarios/catalog.js';
export type { ScenarioScope } from './scenarios/active.js';
export { generateDefaultFixtures, DEFAULT_SEED } from './model/default-fixtures.js';
export { parseFixtureSet, type FixtureSet } from './model/fixture-schema.js';
export { FixtureSetSchema, TaskBodySchema } from './rules/public-schemas.js';
export { FIXTURE_SET_NAMES } from './model/fixture-sets.js';
export type { StateSnapshot } from './model/state.js';
export { createOpenApiDocument, type OpenApiOptions } from './core/openapi.js';
export type { PlainRequest, PlainResponse } from './core/types.js';
export type { Agent, AgentPage, Task, Usage, ErrorBody } from './core/api-types.js';
export type { SandboxFetch } from './http/fetch-door.js';
export type { Overview, OverviewOptions } from './core/overview.js';
export type { JournalEntry, RequestFilter } from './core/journal.js';
export type { TraceStep, TraceStepName, TraceOutcome } from './core/trace.js';
export type { AuditFinding } from './audit/auditor.js';
export { AUDIT_RULES, type AuditRule, type AuditRuleName, type Severity } from './audit/catalog.js';
export type { Clock, ClockMode } from './model/clock.js';
export { WEBHOOK_EVENT_TYPES, type WebhookEvent, type WebhookEventType } from './webhooks/events.js';
export type { WebhookCallback, WebhookRequest } from './webhooks/send.js';
export type {
  SandboxWebhooks,
  WebhookOptions,
  AddWebhookInput,
  WebhookEndpoint,
  WebhookDelivery,
  DeliveryAttempt,
  DeliveryStatus,
  DeliveryFilter,
} from './webhooks/types.js';
export { retryDelay } from './webhooks/retry.js';
