/**
 * The API's response bodies as TypeScript types, inferred from the zod schemas that the OpenAPI document is generated
 * from (`view-schemas.ts`), so the types, the document and the contract test cannot drift apart. Wire casing
 * (snake_case), as the API sends them; the library's own options and views of the control API are camelCase.
 */
import type { z } from 'zod';
import type { AgentListSchema, AgentSchema, ErrorSchema, TaskSchema, UsageSchema } from './view-schemas.js';

/** An agent of the catalog (`GET /ext/agents/{id}`, items of `GET /ext/agents`). */
export type Agent = z.infer<typeof AgentSchema>;
/** One page of the catalog (`GET /ext/agents`). */
export type AgentPage = z.infer<typeof AgentListSchema>;
/** A task (`POST /ext/tasks`, `GET /ext/tasks/{id}`). */
export type Task = z.infer<typeof TaskSchema>;
/** The account's figures for the current period (`GET /ext/usage`). */
export type Usage = z.infer<typeof UsageSchema>;
/** Every error answer: `{ "error": { "code", "message" } }`. */
export type ErrorBody = z.infer<typeof ErrorSchema>;
