import { ScenarioError } from '../errors.js';
import { NO_EFFECTS, type Effects } from '../rules/effects.js';
import { hash53 } from '../model/random.js';
import { findScenario, SCENARIO_NAMES, type ScenarioOptions } from './catalog.js';

/** Where a scenario applies: the whole sandbox, one account or one key. */
export interface ScenarioScope {
  accountId?: string;
  keyId?: string;
}

export interface ActiveScenario {
  id: number;
  name: string;
  options: ScenarioOptions;
  scope: ScenarioScope;
  /** Part of the fixtures (a magic key's, an account's): kept by `clear`, removed by `reset` only. */
  fixed?: boolean;
}

export { ScenarioError };

function assertScenario(name: string): void {
  if (!findScenario(name)) {
    throw new ScenarioError(`Unknown scenario "${name}". Known scenarios: ${SCENARIO_NAMES.join(', ')}.`);
  }
}

/** The limits of each option: a number in [min, max]. */
const OPTION_RANGES: Record<keyof ScenarioOptions, [number, number]> = {
  ms: [0, 120_000],
  jitterMs: [0, 120_000],
  factor: [0.01, 1000],
};

/** Validates a scenario's options (`jitter_ms` is accepted for `jitterMs`, as JSON spells it); returns a clean copy. */
/** `options` may be missing or null from a JavaScript caller. */
function checkOptions(
  name: string,
  options: (ScenarioOptions & { jitter_ms?: number }) | null | undefined,
): ScenarioOptions {
  const out: ScenarioOptions = {};
  for (const [raw, value] of Object.entries(options ?? {})) {
    if (value === undefined) continue;
    const key = (raw === 'jitter_ms' ? 'jitterMs' : raw) as keyof ScenarioOptions;
    const range = Object.hasOwn(OPTION_RANGES, key) ? OPTION_RANGES[key] : undefined;
    if (!range)
      throw new ScenarioError(
        `Unknown option '${raw}' for scenario "${name}". Options: ms and jitterMs (latency), factor (slow-tasks).`,
      );
    if (typeof value !== 'number' || !Number.isFinite(value) || value < range[0] || value > range[1]) {
      throw new ScenarioError(
        `Option '${raw}' of scenario "${name}" must be a number from ${range[0]} to ${range[1]}; got ${JSON.stringify(value)}.`,
      );
    }
    out[key] = value;
  }
  return out;
}

/** Whom a request comes from, the scenarios its header names, and what seeds a latency's jitter. */
export interface ScenarioRequest {
  accountId?: string | undefined;
  keyId?: string | undefined;
  fromHeader?: readonly string[];
  seed: number;
  requestSeq?: number;
}

export interface Resolved {
  effects: Effects;
  names: string[];
}

const NONE: Resolved = Object.freeze({ effects: NO_EFFECTS, names: [] as string[] });

/** The scenarios in force in one sandbox, and how they combine for one request. */
export class ActiveScenarios {
  private list: ActiveScenario[] = [];
  private nextId = 1;

  add(name: string, options: ScenarioOptions = {}, scope: ScenarioScope = {}, fixed = false): () => void {
    assertScenario(name);
    const entry: ActiveScenario = { id: this.nextId++, name, options: checkOptions(name, options), scope };
    if (fixed) entry.fixed = true;
    this.list = [...this.list, entry];
    return () => {
      this.list = this.list.filter((s) => s !== entry);
    };
  }

  /** Removes the scenarios in force (of one scope); those of the fixtures stay: a magic key keeps working. */
  clear(scope?: ScenarioScope): void {
    this.list = this.list.filter(
      (s) =>
        s.fixed === true ||
        (scope !== undefined && (s.scope.accountId !== scope.accountId || s.scope.keyId !== scope.keyId)),
    );
  }

  /** Removes every scenario, those of the fixtures too (a reset applies them again). */
  reset(): void {
    this.list = [];
  }

  all(): readonly ActiveScenario[] {
    return this.list;
  }

  /**
   * Combines the scenarios that apply to a request: sandbox-wide ones, the account's, the key's, and those named in
   * the request's `X-Sandbox-Scenario` header (already validated). Later ones win on the same flag.
   */
  resolve(request: ScenarioRequest): Resolved {
    const { accountId, keyId, fromHeader = [], seed, requestSeq = 0 } = request;
    if (this.list.length === 0 && fromHeader.length === 0) return NONE;
    let effects: Effects = {};
    const names: string[] = [];
    const apply = (name: string, options: ScenarioOptions) => {
      const scenario = findScenario(name);
      if (!scenario) return;
      effects = { ...effects, ...scenario.effects(options) };
      if (name === 'latency' && options.jitterMs) {
        effects.latencyMs = (effects.latencyMs ?? 0) + (hash53(`latency:${requestSeq}`, seed) % (options.jitterMs + 1));
      }
      names.push(name);
    };
    for (const s of this.list) {
      const { accountId: a, keyId: k } = s.scope;
      if ((a === undefined || a === accountId) && (k === undefined || k === keyId)) apply(s.name, s.options);
    }
    for (const name of fromHeader) apply(name, {});
    return names.length === 0 ? NONE : { effects, names };
  }

  /**
   * What reaches an account's webhook deliveries: the effects of the sandbox-wide and account scenarios (a key scope
   * or a header cannot reach a message sent outside any request), and the names of those that act on webhooks, each
   * once, so a delivery can say which scenario spoiled it.
   */
  resolveWebhooks(accountId: string, seed: number): Resolved {
    const resolved = this.resolve({ accountId, seed });
    if (resolved.names.length === 0) return resolved;
    const names = [...new Set(resolved.names)].filter((name) => findScenario(name)?.reaches === 'webhooks');
    return { effects: resolved.effects, names };
  }
}
