/**
 * `agent-work-sandbox/matchers`: assertions on what a client sent and what it spent, for Vitest and Jest alike.
 * Nothing here imports the runner: register them with the runner's own `expect.extend(sandboxMatchers)`.
 * docs/guides/assertions.md has an example of each.
 */
import type { RequestPattern } from './core/request-pattern.js';
import { toHaveCleanAudit, type CleanAuditOptions } from './matchers/audit.js';
import { toHaveReceived, toHaveReceivedInOrder, toHaveReceivedOnly } from './matchers/received.js';
import type { ReceivedOptions, ReceivedScope } from './matchers/received.js';
import { toHaveSpent, type SpendExpectation, type SpendOptions } from './matchers/spent.js';

export type { CleanAuditOptions, ReceivedOptions, ReceivedScope, RequestPattern, SpendExpectation, SpendOptions };
export type { SpendBound } from './matchers/spent.js';

/** The matchers' types, to add to the runner's (`interface Assertion<T> extends SandboxMatchers<T> {}`). */
export interface SandboxMatchers<R = unknown> {
  /** Passes when the audit has no finding at `severity` or worse (default: no `error` finding). */
  toHaveCleanAudit(options?: CleanAuditOptions): R;
  /**
   * Passes when the requests in scope include `times` (or `atLeast`/`atMost`; default: at least one) matching
   * `pattern`. An unknown pattern key throws.
   * @example expect(sandbox).toHaveReceived({ method: 'POST', path: '/ext/tasks', status: 201 }, { times: 1 })
   */
  toHaveReceived(pattern: RequestPattern, options?: ReceivedOptions): R;
  /**
   * Passes when requests matching the patterns were received in this order (others may come between).
   * @example expect(sandbox).toHaveReceivedInOrder([{ method: 'POST' }, { path: '/ext/tasks/:id' }])
   */
  toHaveReceivedInOrder(patterns: RequestPattern[], options?: ReceivedScope): R;
  /**
   * Passes when every request in scope matches one of the patterns: nothing else was sent.
   * @example expect(sandbox).toHaveReceivedOnly([{ path: '/ext/agents' }], { since: mark })
   */
  toHaveReceivedOnly(patterns: RequestPattern[], options?: ReceivedScope): R;
  /**
   * Passes when the tasks created in scope hold each figure: `usd` (charged plus still held), `tokens` (charged),
   * `tasks` (created); a number or `{ lte?, gte? }`.
   * @example expect(sandbox).toHaveSpent({ usd: { lte: 0.05 }, tasks: 1 }, { accountId: 'acc_demo', since: mark })
   */
  toHaveSpent(expected: SpendExpectation, options?: SpendOptions): R;
}

/** Every matcher of the package, for `expect.extend(sandboxMatchers)`. */
export const sandboxMatchers = {
  toHaveCleanAudit,
  toHaveReceived,
  toHaveReceivedInOrder,
  toHaveReceivedOnly,
  toHaveSpent,
};

/**
 * The same object under its first name.
 * @alias
 */
export const auditMatchers = sandboxMatchers;
/** The same interface under its first name. */
export type AuditMatchers<R = unknown> = SandboxMatchers<R>;
