/**
 * What both library entries export besides `createSandbox`: the main entry (`agent-work-sandbox`, with msw's handlers)
 * and `agent-work-sandbox/fetch` (without msw). Runtime-neutral, and nothing here imports msw.
 */
export { createSandboxCore } from './sandbox.js';
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
export type { Clock, ClockMode, Duration } from './model/clock.js';
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
