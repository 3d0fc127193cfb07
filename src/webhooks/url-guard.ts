/**
 * Webhook URLs the sandbox must not call: its own listener's control API and inspector (a webhook pointed at
 * `/__sandbox/reset` would wipe the sandbox on the first event). A server registers a guard for the sandbox it serves;
 * the dispatcher asks the guards when an endpoint is added and again before each attempt.
 */

/** The User-Agent of every webhook message: a receiver (and the sandbox's own control API) can recognise them. */
export const WEBHOOK_USER_AGENT = 'agent-work-sandbox-webhooks';

/** A refusal message for a URL, or undefined to let it through. */
export type UrlGuard = (url: URL) => string | undefined;

const guards = new WeakMap<object, Set<UrlGuard>>();

/** Registers `guard` for the webhooks of one sandbox (`owner`: its `webhooks` object); returns the undo function. */
export function addUrlGuard(owner: object, guard: UrlGuard): () => void {
  let set = guards.get(owner);
  if (!set) guards.set(owner, (set = new Set()));
  set.add(guard);
  return () => void set.delete(guard);
}

/** Why `url` may not be called for `owner`, or undefined. */
export function refusedUrl(owner: object, url: string): string | undefined {
  const set = guards.get(owner);
  if (!set || set.size === 0) return undefined;
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed) return undefined;
  for (const guard of set) {
    const reason = guard(parsed);
    if (reason) return reason;
  }
  return undefined;
}
