import { z } from 'zod';
import { lazy } from '../model/lazy.js';
import { MODEL_IDS } from '../model/models.js';
import { PRIORITIES } from '../model/types.js';
import { ApiError } from './errors.js';

const MAX_DESCRIPTION_CHARS = 100_000;
/** Bodies over 1 MiB answer 413 `request_too_large`. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The body of POST /ext/tasks (docs/guides/tasks-and-billing.md). `model` is a sandbox extension; unknown fields are ignored.
 * This schema is the one place the rule is written: validation uses it, and so can a generated API description.
 * Built on the first POST (the CLI's start loads no zod); the library exports it built, as `TaskBodySchema`.
 */
export const taskBodySchema = lazy(() =>
  z.object({
    agent_id: z.string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') }),
    description: z
      .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
      .min(1, { error: 'must not be empty' })
      .max(MAX_DESCRIPTION_CHARS, { error: `must be at most ${MAX_DESCRIPTION_CHARS} characters` }),
    priority: z
      .enum(PRIORITIES as [string, ...string[]], { error: `must be one of ${PRIORITIES.join(', ')}` })
      .optional(),
    model: z.enum(MODEL_IDS as [string, ...string[]], { error: `must be one of ${MODEL_IDS.join(', ')}` }).optional(),
  }),
);

export type TaskBody = z.infer<ReturnType<typeof taskBodySchema>>;

/** Parses and validates the body text; throws 400 `invalid_request` naming the field. */
export function parseTaskBody(text: string): TaskBody {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiError('invalid_request', 'Invalid request body: it is not valid JSON.');
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new ApiError('invalid_request', 'Invalid request body: it must be a JSON object.');
  }
  const plain = plainTaskBody(json as Record<string, unknown>);
  if (plain) return plain;
  const parsed = taskBodySchema().safeParse(json);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    throw new ApiError('invalid_request', `Invalid field '${String(issue?.path[0])}': ${String(issue?.message)}.`);
  }
  return parsed.data;
}

const PRIORITY_NAMES = new Set<unknown>(PRIORITIES);
const MODEL_NAMES = new Set<unknown>(MODEL_IDS);

/**
 * The common body, checked without zod: the fields of the schema above, each of the right type and in range. Anything
 * else (a missing or wrong field: an error to word) returns undefined, and the schema decides, with its messages.
 * The result is what the schema's parse gives (its fields only, the optional ones when present).
 */
function plainTaskBody(json: Record<string, unknown>): TaskBody | undefined {
  const { agent_id, description, priority, model } = json;
  if (typeof agent_id !== 'string' || typeof description !== 'string') return undefined;
  if (description.length < 1 || description.length > MAX_DESCRIPTION_CHARS) return undefined;
  if (priority !== undefined && !PRIORITY_NAMES.has(priority)) return undefined;
  if (model !== undefined && !MODEL_NAMES.has(model)) return undefined;
  const body: TaskBody = { agent_id, description };
  if (priority !== undefined) body.priority = priority as string;
  if (model !== undefined) body.model = model as string;
  return body;
}

/** Whether a body is over the 1 MiB limit, counted in UTF-8 bytes. */
export function isBodyTooLarge(text: string): boolean {
  if (text.length > MAX_BODY_BYTES) return true;
  if (text.length * 3 <= MAX_BODY_BYTES) return false;
  return new TextEncoder().encode(text).length > MAX_BODY_BYTES;
}
