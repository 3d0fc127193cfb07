import { z } from 'zod';
import { lazy } from '../model/lazy.js';
import { MODEL_IDS } from '../model/models.js';
import { PRIORITIES } from '../model/types.js';
import { ApiError } from './errors.js';

const MAX_DESCRIPTION_CHARS = 100_000;
/** Bodies over 1 MiB answer 413 `request_too_large`. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The body of POST /ext/tasks (docs/tasks-and-billing.md). `model` is a sandbox extension; unknown fields are ignored.
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
  const parsed = taskBodySchema().safeParse(json);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    throw new ApiError('invalid_request', `Invalid field '${String(issue?.path[0])}': ${String(issue?.message)}.`);
  }
  return parsed.data;
}

/** Whether a body is over the 1 MiB limit, counted in UTF-8 bytes. */
export function isBodyTooLarge(text: string): boolean {
  if (text.length > MAX_BODY_BYTES) return true;
  if (text.length * 3 <= MAX_BODY_BYTES) return false;
  return new TextEncoder().encode(text).length > MAX_BODY_BYTES;
}
