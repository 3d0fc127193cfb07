/** The library's keys, accounts and tasks APIs (`sandbox.keys`, `sandbox.accounts`, `sandbox.tasks`). */
import type { Engine } from '../core/engine.js';
import { settle } from '../core/handle.js';
import { maskKeys } from '../core/mask.js';
import { accountView, taskView } from '../core/views.js';
import { SandboxError } from '../errors.js';
import { usdToNano } from '../model/money.js';
import { PLANS } from '../model/plans.js';
import { seededId, seededKey } from '../model/random.js';
import type { Scope } from '../model/scopes.js';
import { addKey, newAccount } from '../model/state.js';
import type { TaskRecord } from '../model/task-record.js';
import type { Account } from '../model/types.js';
import { periodBounds } from '../rules/period.js';
import { finish } from '../rules/tasks.js';
import type { CreatedKey, SandboxCore } from '../sandbox-types.js';
import { accountCreateInput, accountPatchInput, keyCreateInput, parseInput } from '../schemas.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';

const DEFAULT_ACCOUNT = 'acc_demo';

const keyView = (k: { id: string; key: string; accountId: string; scopes: Scope[] }): CreatedKey => ({
  id: k.id,
  key: k.key,
  accountId: k.accountId,
  scopes: [...k.scopes],
});

function accountOf(engine: Engine, id: string): Account {
  const a = engine.state.accounts.get(id);
  if (!a) throw new SandboxError(`No account '${id}'.`, 'not_found');
  return a;
}

/** A task that has not ended yet (settled first, so that a move due by now has happened). */
function openTask(engine: Engine, id: string): TaskRecord {
  settle(engine);
  const t = engine.state.tasks.get(id);
  if (!t) throw new SandboxError(`No task '${id}'.`, 'not_found');
  if (t.status === 'completed' || t.status === 'failed')
    throw new SandboxError(`Task '${id}' has already ended (${t.status}).`);
  return t;
}

/** `seed`: the sandbox's own (ids of minted keys and accounts do not follow a restored snapshot's seed). */
export function keysApi(engine: Engine, seed: number): SandboxCore['keys'] {
  return {
    create(input) {
      const state = engine.state;
      const accountId =
        input.accountId ?? (state.accounts.has(DEFAULT_ACCOUNT) ? DEFAULT_ACCOUNT : state.accounts.keys().next().value);
      if (accountId === undefined)
        throw new SandboxError('The sandbox has no account to create the key in.', 'not_found');
      const owner = accountOf(engine, accountId);
      parseInput(keyCreateInput, input, 'the key');
      const plan = PLANS[owner.plan];
      const live = [...state.keysById.values()].filter((k) => k.accountId === owner.id && !k.revoked).length;
      if (plan.maxKeys !== null && live >= plan.maxKeys) {
        throw new SandboxError(
          `The ${plan.name} plan allows ${String(plan.maxKeys)} API key${plan.maxKeys === 1 ? '' : 's'} per account; account '${owner.id}' has ${String(live)}. Revoke one or change the plan.`,
        );
      }
      const n = ++state.counters.key;
      const created = {
        id: seededId('key', seed, `minted-key-id:${String(n)}`),
        key: seededKey(seed, `minted-key:${String(n)}`),
        accountId: owner.id,
        scopes: [...new Set(input.scopes)],
        revoked: false,
        label: input.label ?? input.scopes.join(' '),
        createdAt: engine.clock.now(),
      };
      addKey(state, created);
      return keyView(created);
    },
    revoke(idOrKey) {
      const k = engine.state.keysById.get(idOrKey) ?? engine.state.keys.get(idOrKey);
      if (!k) throw new SandboxError(`No key '${maskKeys(idOrKey)}'.`, 'not_found');
      k.revoked = true;
    },
    list(accountId) {
      if (accountId !== undefined) accountOf(engine, accountId); // an unknown account is an error, not an empty list
      const active = engine.scenarios.all();
      return [...engine.state.keysById.values()]
        .filter((k) => accountId === undefined || k.accountId === accountId)
        .map((k) => ({
          ...keyView(k),
          revoked: k.revoked,
          label: k.label,
          scenarios: active.filter((s) => s.scope.keyId === k.id).map((s) => s.name),
        }));
    },
  };
}

export function accountsApi(
  engine: Engine,
  seed: number,
  hooks: WebhookDispatcher,
  keys: SandboxCore['keys'],
): SandboxCore['accounts'] {
  return {
    list: () => {
      settle(engine);
      return [...engine.state.accounts.values()].map(accountView);
    },
    get: (id) => {
      settle(engine);
      const a = engine.state.accounts.get(id);
      return a ? accountView(a) : undefined;
    },
    update(id, patch) {
      settle(engine);
      const a = accountOf(engine, id);
      parseInput(accountPatchInput, patch, 'the account change');
      if (patch.plan !== undefined) a.plan = patch.plan;
      const previousNano = a.balanceNano;
      if (patch.balanceUsd !== undefined) a.balanceNano = usdToNano(patch.balanceUsd);
      const limits = patch.limits ?? {};
      for (const name of ['rpm', 'tpm'] as const) {
        const value = limits[name];
        if (value === null && name === 'rpm')
          delete a.limits.rpm; // null: back to the plan's limit
        else if (value === null) delete a.limits.tpm;
        else if (value !== undefined) a.limits[name] = value;
      }
      hooks.balanceSet(a.id, previousNano);
      return accountView(a);
    },
    create(input = {}) {
      parseInput(accountCreateInput, input, 'the account');
      const plan = input.plan ?? 'pro';
      const n = ++engine.state.counters.account;
      const id = seededId('acc', seed, `account:${String(n)}`);
      const now = engine.clock.now();
      const balanceNano = input.balanceUsd === undefined ? undefined : usdToNano(input.balanceUsd);
      engine.state.accounts.set(
        id,
        newAccount({ id, name: input.name ?? `Account ${String(n)}`, plan, balanceNano }, periodBounds(now), now),
      );
      return {
        account: accountView(accountOf(engine, id)),
        key: keys.create({ accountId: id, scopes: ['admin'], label: 'admin' }),
      };
    },
  };
}

export function tasksApi(engine: Engine): SandboxCore['tasks'] {
  return {
    get: (id) => {
      settle(engine);
      const t = engine.state.tasks.get(id);
      return t ? taskView(t) : undefined;
    },
    list: (accountId) => {
      settle(engine);
      if (accountId !== undefined) accountOf(engine, accountId); // an unknown account is an error, not an empty list
      return [...engine.state.tasks.values()]
        .filter((t) => accountId === undefined || t.accountId === accountId)
        .map(taskView);
    },
    complete(id, result) {
      const t = openTask(engine, id);
      finish(engine, t, engine.clock.now(), 'completed', { result });
      return taskView(t);
    },
    fail(id, error) {
      const t = openTask(engine, id);
      const given: unknown = error; // JavaScript callers may pass anything
      if (
        given !== undefined &&
        !(
          typeof given === 'object' &&
          given !== null &&
          'code' in given &&
          typeof given.code === 'string' &&
          'message' in given &&
          typeof given.message === 'string'
        )
      ) {
        throw new SandboxError('error must be { code: string, message: string }.');
      }
      finish(engine, t, engine.clock.now(), 'failed', { error });
      return taskView(t);
    },
  };
}
