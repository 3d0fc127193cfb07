/**
 * `sandbox.webhooks.event()`: the event a delivery would carry, built from the sandbox's current state (a real task, a
 * real account), with overrides that may only change fields the event has.
 */
import type { Engine } from '../core/engine.js';
import { SandboxError } from '../errors.js';
import { PLANS } from '../model/plans.js';
import type { Account } from '../model/types.js';
import { parseInput, webhookKitOptions } from '../schemas.js';
import {
  creditsLowEvent,
  isWebhookEventType,
  sampleEvent,
  taskEvent,
  WEBHOOK_EVENT_TYPES,
  type WebhookEvent,
  type WebhookEventType,
} from './events.js';

/** The options of `sandbox.webhooks.event()`. */
export interface WebhookEventOptions {
  /** The task the event reports (task events); default: the account's newest task. */
  taskId?: string;
  /** Whose event it is; default: the task's account, else the first account whose plan has webhooks. */
  accountId?: string;
  /** Fields to change, nested as in the event (`{ data: { task: { status: 'failed' } } }`); an unknown field throws. */
  overrides?: Record<string, unknown>;
}

/** An event and the account it belongs to. */
export interface BuiltEvent {
  event: WebhookEvent;
  accountId: string;
}

export function checkedEventType(type: unknown): WebhookEventType {
  if (!isWebhookEventType(type))
    throw new SandboxError(`type must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}; got ${JSON.stringify(type)}.`);
  return type;
}

/** Which event to build: its type (checked here), the caller's options, its id, the low-balance threshold. */
export interface EventSpec {
  type: unknown;
  options: WebhookEventOptions;
  id: string;
  thresholdNano: number;
}

/** The event of `type` with id `id`, at the sandbox clock's time, from the state as it is now. */
export function buildEvent(engine: Engine, spec: EventSpec): BuiltEvent {
  const { type, options: given, id, thresholdNano } = spec;
  const checkedType = checkedEventType(type);
  const options = parseInput(webhookKitOptions().event, given, 'the event options');
  const now = engine.clock.now();
  const task = options.taskId === undefined ? undefined : engine.state.tasks.get(options.taskId);
  if (options.taskId !== undefined && !task) throw new SandboxError(`No task '${options.taskId}'.`, 'not_found');
  if (task && options.accountId !== undefined && task.accountId !== options.accountId)
    throw new SandboxError(`The task '${task.id}' belongs to '${task.accountId}', not to '${options.accountId}'.`);
  const account = accountFor(engine, options.accountId ?? task?.accountId);
  let event: WebhookEvent;
  if (checkedType === 'credits.low') event = creditsLowEvent(id, account, thresholdNano, now);
  else {
    const reported = task ?? newestTask(engine, account.id);
    event = reported
      ? taskEvent(id, checkedType, reported, now)
      : sampleEvent(id, checkedType, {
          account,
          agentId: engine.state.agents[0]?.id ?? 'agt_sample',
          thresholdNano,
          at: now,
        });
  }
  if (options.overrides) {
    const copy = JSON.parse(JSON.stringify(event)) as WebhookEvent;
    override(copy as unknown as Record<string, unknown>, options.overrides, '');
    checkedEventType(copy.type);
    event = copy;
  }
  return { event, accountId: account.id };
}

function accountFor(engine: Engine, accountId: string | undefined): Account {
  if (accountId !== undefined) {
    const account = engine.state.accounts.get(accountId);
    if (!account) throw new SandboxError(`No account '${accountId}'.`, 'not_found');
    return account;
  }
  const accounts = [...engine.state.accounts.values()];
  const account = accounts.find((a) => PLANS[a.plan].webhooks) ?? accounts[0];
  if (!account) throw new SandboxError('The sandbox has no account to make an event for.', 'not_found');
  return account;
}

function newestTask(engine: Engine, accountId: string) {
  let newest;
  for (const t of engine.state.tasks.values()) if (t.accountId === accountId) newest = t;
  return newest;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Merges `overrides` into `target`, field by field; a field the target lacks is a mistake, not an addition. */
function override(target: Record<string, unknown>, overrides: Record<string, unknown>, path: string): void {
  for (const [key, value] of Object.entries(overrides)) {
    const where = path === '' ? key : `${path}.${key}`;
    if (!Object.hasOwn(target, key))
      throw new SandboxError(
        `overrides: the event has no field '${where}' (${path === '' ? 'it has' : `'${path}' has`} ${Object.keys(target).join(', ')}).`,
      );
    const current = target[key];
    if (isObject(current) && isObject(value)) override(current, value, where);
    else target[key] = value;
  }
}

/** The account an event belongs to: its task's, or the account it reports; null when the state has neither. */
export function accountOfEvent(engine: Engine, event: WebhookEvent): string | null {
  const data = event.data as { task?: { id?: unknown }; account?: { id?: unknown } } | undefined;
  const taskId = data?.task?.id;
  if (typeof taskId === 'string') return engine.state.tasks.get(taskId)?.accountId ?? null;
  const accountId = data?.account?.id;
  return typeof accountId === 'string' && engine.state.accounts.has(accountId) ? accountId : null;
}
