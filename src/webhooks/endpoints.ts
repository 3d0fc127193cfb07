/** Webhook endpoints: checked input in, an endpoint with its secret out. */
import type { Engine } from '../core/engine.js';
import { SandboxError } from '../errors.js';
import { PLANS } from '../model/plans.js';
import { seededId } from '../model/random.js';
import { parseInput, webhookUrl } from '../schemas.js';
import type { WebhookSnapshot } from '../model/snapshot-schema.js';
import type { Endpoint } from './journal.js';
import { secretBytes, seededSecret } from './signature.js';
import { refusedUrl } from './url-guard.js';
import type { AddWebhookInput, WebhookOptions } from './types.js';

/** The `n`-th endpoint of the sandbox; `owner` is the dispatcher (whose url guards apply). */
export function newEndpoint(engine: Engine, owner: object, input: AddWebhookInput, n: number): Endpoint {
  // A JavaScript caller may pass nothing at all: that is an unknown account, not a TypeError.
  const accountId = (input as AddWebhookInput | undefined)?.accountId;
  const account = accountId === undefined ? undefined : engine.state.accounts.get(accountId);
  if (!account) throw new SandboxError(`No account '${String(accountId)}'.`, 'not_found');
  const plan = PLANS[account.plan];
  if (!plan.webhooks) {
    throw new SandboxError(
      `Webhooks are a feature of the Pro and Enterprise plans; account '${account.id}' is on the ${plan.name} plan.`,
    );
  }
  const given: unknown = input.url; // null from a JavaScript caller means none
  const hasUrl = given !== undefined && given !== null;
  if (hasUrl === (input.callback !== undefined))
    throw new SandboxError('Give a webhook endpoint either a url or a callback (one of them).');
  if (input.callback !== undefined && typeof input.callback !== 'function')
    throw new SandboxError('callback must be a function.');
  const url = hasUrl ? parseInput(webhookUrl, input.url, 'url') : null;
  const refused = url === null ? undefined : refusedUrl(owner, url);
  if (refused) throw new SandboxError(`url: ${refused}`);
  const secret = input.secret ?? seededSecret(engine.seed, `endpoint:${n}`);
  return {
    id: seededId('ep', engine.seed, `webhook-endpoint:${n}`),
    accountId: account.id,
    url,
    callback: input.callback,
    secret,
    bytes: secretBytes(secret),
    createdAt: engine.clock.now(),
  };
}

/** The endpoints a test message goes to: one by id, or those of an account, or all; none is an error. */
export function testTargets(endpoints: Endpoint[], options: { endpointId?: string; accountId?: string }): Endpoint[] {
  let targets = endpoints;
  if (options.endpointId !== undefined) {
    targets = targets.filter((e) => e.id === options.endpointId);
    if (targets.length === 0) throw new SandboxError(`No webhook endpoint '${options.endpointId}'.`, 'not_found');
  }
  if (options.accountId !== undefined) targets = targets.filter((e) => e.accountId === options.accountId);
  if (targets.length === 0) throw new SandboxError('No webhook endpoint to test: add one first.', 'not_found');
  return targets;
}

/**
 * The endpoints of the option `webhooks.endpoints`, as inputs of `add`: one without `accountId` stands for one
 * endpoint per account whose plan has webhooks, all with one secret.
 */
export function initialEndpoints(engine: Engine, specs: NonNullable<WebhookOptions['endpoints']>): AddWebhookInput[] {
  return specs.flatMap((spec, i) => {
    if (spec.accountId !== undefined) return [{ ...spec, accountId: spec.accountId }];
    const secret = spec.secret ?? seededSecret(engine.seed, `initial:${String(i)}`);
    return [...engine.state.accounts.values()]
      .filter((a) => PLANS[a.plan].webhooks)
      .map((a) => ({ ...spec, accountId: a.id, secret }));
  });
}

/** The endpoints with a url, as data (a callback cannot be saved: its endpoint is left out). */
export function savedEndpoints(endpoints: Iterable<Endpoint>): WebhookSnapshot['endpoints'] {
  return [...endpoints].flatMap((e) =>
    e.url === null ? [] : [{ id: e.id, accountId: e.accountId, url: e.url, secret: e.secret, createdAt: e.createdAt }],
  );
}
