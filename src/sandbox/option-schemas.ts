/**
 * The zod schemas of the library's plain options: `createSandbox(options)` and `sandbox.listen(options)`. Built on
 * first use and kept (an app that gives no options never builds them); a bad value is refused with a `SandboxError`
 * naming the field (`taskRetention: must be an integer ≥ 0 or Infinity.`), through `parseInput` of src/schemas.ts.
 * Each schema is checked against the option type it reads (`ShapeOf`): a field of the type without a schema, a schema
 * without a field, or an output the type does not allow is a compile error.
 */
import type { RequestHandler } from 'msw';
import { z } from 'zod';
import type { FixtureSet } from '../model/fixture-schema.js';
import type { FixtureSetName } from '../model/fixture-sets.js';
import type { ScenarioName, ScenarioOptions } from '../scenarios/catalog.js';
import type { ListenOptions, SandboxOptions, ScenarioSpec } from '../sandbox-types.js';
import { parseInput } from '../schemas.js';
import type { WebhookCallback } from '../webhooks/send.js';
import type { WebhookOptions } from '../webhooks/types.js';

/** One schema for each field of `T`, giving what the field's type allows. */
type ShapeOf<T> = { [K in keyof T]-?: z.ZodType<T[K]> };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function buildShared() {
  const int = (min: number, max = Number.MAX_SAFE_INTEGER) =>
    z
      .int({
        error:
          max === Number.MAX_SAFE_INTEGER ? `must be an integer ≥ ${min}` : `must be an integer from ${min} to ${max}`,
      })
      .min(min)
      .max(max);
  const millis = (positive: boolean) =>
    z
      .number({ error: `must be a number of milliseconds ${positive ? '> 0' : '≥ 0'}` })
      .refine((v) => (positive ? v > 0 : v >= 0), {
        error: `must be a number of milliseconds ${positive ? '> 0' : '≥ 0'}`,
      });
  const text = z.string({ error: 'must be a string' });
  return { int, millis, text };
}

function buildSandboxOptions() {
  const { int, millis, text } = buildShared();
  const scenarioName = z.custom<ScenarioName>((v) => typeof v === 'string', { error: 'must be a scenario name' });
  const scenarioSpec = z.union(
    [
      scenarioName,
      z.strictObject({
        name: scenarioName,
        options: z.custom<ScenarioOptions>(isObject, { error: 'must be an object' }).optional(),
        accountId: text.optional(),
        keyId: text.optional(),
      }),
    ],
    { error: 'must be a scenario name or { name, options?, accountId?, keyId? }' },
  ) satisfies z.ZodType<ScenarioSpec>;
  const endpoint = z.strictObject({
    accountId: text.optional(),
    url: text.optional(),
    callback: z.custom<WebhookCallback>((v) => typeof v === 'function', { error: 'must be a function' }).optional(),
    secret: text.optional(),
  });
  const webhooks = z.strictObject({
    maxAttempts: int(1, 50).optional(),
    retryBaseMs: millis(false).optional(),
    timeoutMs: millis(true).optional(),
    lowBalanceUsd: z.number({ error: 'must be a number ≥ 0' }).min(0, { error: 'must be a number ≥ 0' }).optional(),
    endpoints: z.array(endpoint, { error: 'must be a list of endpoints' }).optional(),
    deliveriesKept: int(1).optional(),
    flushTimeoutMs: millis(true).optional(),
  } satisfies ShapeOf<WebhookOptions>);
  return z.strictObject({
    seed: z.int({ error: 'must be an integer' }).optional(),
    fixtures: z
      .custom<FixtureSetName | FixtureSet>((v) => typeof v === 'string' || isObject(v), {
        error: 'must be the name of a bundled fixture set or a fixture set object',
      })
      .optional(),
    baseUrl: text
      .refine((v) => URL.canParse(v), { error: 'must be an absolute URL, such as https://api.example.com/api/v1' })
      .optional(),
    clock: z.enum(['real', 'manual'], { error: "must be 'real' or 'manual'" }).optional(),
    now: z
      .union([z.date(), z.string(), z.number()])
      .refine((v) => Number.isFinite(new Date(v).getTime()), {
        error: 'must be an ISO 8601 time, epoch milliseconds or a valid Date',
      })
      .optional(),
    scenarios: z.array(scenarioSpec, { error: 'must be a list of scenarios' }).optional(),
    journalSize: int(0).optional(),
    anonymousRpm: int(1).optional(),
    taskTimings: z
      .strictObject({
        queuedMs: millis(false).optional(),
        runningMinMs: millis(false).optional(),
        runningMaxMs: millis(false).optional(),
      })
      .optional(),
    handlers: z
      .array(
        z.custom<RequestHandler>((v) => isObject(v) && typeof v.run === 'function', {
          error: 'must be an msw request handler',
        }),
        { error: 'must be a list of msw request handlers' },
      )
      .optional(),
    webhooks: webhooks.optional(),
    taskRetention: z
      .custom<number>((v) => v === Infinity || (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0), {
        error: 'must be an integer ≥ 0 or Infinity',
      })
      .optional(),
  } satisfies ShapeOf<SandboxOptions>);
}

function buildListenOptions() {
  const { int, millis, text } = buildShared();
  return z.strictObject({
    handlers: z
      .array(z.custom<RequestHandler>(isObject), { error: 'must be a list of msw request handlers' })
      .optional(),
    port: int(0, 65_535).optional(),
    host: text.optional(),
    controlToken: text.min(1, { error: 'must not be empty' }).optional(),
    headersTimeoutMs: millis(true).optional(),
    requestTimeoutMs: millis(true).optional(),
  } satisfies ShapeOf<ListenOptions>);
}

let sandboxSchema: ReturnType<typeof buildSandboxOptions> | undefined;
let listenSchema: ReturnType<typeof buildListenOptions> | undefined;

/** An object with no field set (`{}` or every field undefined): nothing to check. */
const nothingGiven = (options: object) => Object.values(options).every((v) => v === undefined);

/** `createSandbox`'s options, checked; a wrong one throws a `SandboxError` naming it. */
export function checkSandboxOptions(options: SandboxOptions): SandboxOptions {
  if (isObject(options) && nothingGiven(options)) return options;
  sandboxSchema ??= buildSandboxOptions();
  return parseInput(sandboxSchema, options, 'the options of createSandbox');
}

/** `sandbox.listen()`'s options, checked; a wrong one throws a `SandboxError` naming it. */
export function checkListenOptions(options: ListenOptions): ListenOptions {
  if (isObject(options) && nothingGiven(options)) return options;
  listenSchema ??= buildListenOptions();
  return parseInput(listenSchema, options, 'the options of listen()');
}
