import type { Clock } from '../model/clock.js';
import type { Task } from '../model/types.js';
import type { TaskEnv } from '../rules/tasks.js';
import type { ActiveScenarios } from '../scenarios/active.js';
import type { PlainRequest, PlainResponse } from './types.js';
import type { Journal } from './journal.js';
import type { EntryFacts } from './journal.js';

/** Everything the request core works on: one sandbox's state, clock, scenarios and journal. */
export interface Engine extends TaskEnv {
  clock: Clock;
  journal: Journal;
  /** The integration audit (src/audit/auditor.ts): watches every request's answer. */
  audit?: AuditObserver;
  scenarios: ActiveScenarios;
  /** The path of {base_url}, e.g. `/api/v1`: used in `Location`. */
  basePath: string;
  /** Requests per minute of the anonymous bucket (requests without a valid key), per client. */
  anonymousRpm: number;
  /** Serialised agent list pages, valid for one catalog version. */
  pageCache: { version: number; pages: Map<string, string> };
  /** Answers of finished tasks by id (src/core/task-json.ts), made when first needed. */
  taskJson?: Map<string, { task: Task; body: string }>;
  requestSeq: number;
}

/** What the core tells the integration audit about each answered request (implemented by src/audit/auditor.ts). */
export interface AuditObserver {
  /** The same facts as the journal's entry for the request. */
  observe(facts: EntryFacts, req: PlainRequest, response: PlainResponse | undefined): void;
  /**
   * A webhook handler answered 2xx to a message it must reject: a wrong signature (or a body that is not the one
   * signed), or a timestamp outside the Standard Webhooks tolerance. `eventId` is the message's `webhook-id`.
   */
  observeHandler?(fault: HandlerFault, accountId: string | null, eventId: string): void;
}

/** What a webhook handler accepted that it must reject. */
export type HandlerFault = 'bad-signature' | 'stale-timestamp';
