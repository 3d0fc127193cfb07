import { UsageError } from '../errors.js';
import { parseArgs } from 'node:util';
import type { ClockMode } from '../model/clock.js';
import { findScenario, SCENARIO_NAMES, type ScenarioName } from '../scenarios/catalog.js';
import { webhookUrl as WEBHOOK_URL } from '../schemas.js';
import ms, { type StringValue } from 'ms';
import { closest, distance } from 'fastest-levenshtein';
import { DEFAULT_STATE_SYNC_MS, type StateSync } from '../server/durable-state.js';

const DEFAULT_PORT = 4747;
const ENV_PREFIX = 'AGENT_WORK_SANDBOX_';

export interface CliConfig {
  command: 'serve' | 'help' | 'version' | 'fixtures-export';
  port: number;
  host: string;
  seed: number;
  clock: ClockMode;
  scenarios: ScenarioName[];
  fixtures: string | undefined;
  state: string | undefined;
  /** The flags given that a loaded `--state` file replaces (`--seed`, `--fixtures`), so the CLI can say which wins. */
  replacedByState: string[];
  /** `--state-sync`: when the state file is written (see src/server/durable-state.ts). */
  stateSync: StateSync;
  handlers: string | undefined;
  controlToken: string | undefined;
  anonymousRpm: number | undefined;
  /** Webhook URLs registered for every fixture account whose plan has webhooks. */
  webhooks: string[];
  taskRetention: number | undefined;
  quiet: boolean;
  /** The request log on stdout: `text` (default) or `json` (one object a line); none with --quiet. */
  log: 'text' | 'json';
  /** `--fail-on-audit`: exit 3 at shutdown when the audit has a finding this severe or worse. */
  failOnAudit: 'error' | 'warning' | undefined;
}

export { UsageError };

export const HELP = `Usage: agent-work-sandbox [options]
       agent-work-sandbox fixtures export [--fixtures SET] [--seed N]   print a fixture set as JSON
       agent-work-sandbox webhooks send|trigger <type>   test a webhook handler (webhooks --help)

A local sandbox of the Agent Work Service API (base URL http://HOST:PORT/api/v1).

Options (environment fallback in brackets):
  -p, --port N            port to listen on; 0 picks a free one [AGENT_WORK_SANDBOX_PORT, PORT] (default ${DEFAULT_PORT})
      --host HOST         address to bind                           [AGENT_WORK_SANDBOX_HOST]  (default 127.0.0.1)
      --seed N            seed of every random choice               [AGENT_WORK_SANDBOX_SEED]  (default 1)
      --clock MODE        real | manual (moves only through the control API)                   (default real)
      --scenario A,B      scenarios in force from the start (repeatable)
      --fixtures SET      a bundled set (default, marketplace, empty) or a fixture file (JSON)  (default default)
      --state FILE        load state from FILE at start, save it there (atomically) as it changes and at exit
      --state-sync WHEN   when --state saves: 1s (default: at most a second of writes lost on a crash), any
                          interval (500ms, 5s), always (every write on disk before its answer), exit
      --handlers FILE     a module exporting msw handlers (default export or \`handlers\`), served beside the API
      --control-token T   token the control API asks for (generated when --host is not loopback)
      --anonymous-rpm N   requests per minute per client without a valid key                  (default 60)
      --webhook URL       send signed task events to URL for the Pro and Enterprise accounts (repeatable)
      --task-retention N  finished tasks kept; the oldest beyond N are dropped (read 404)     (default 10000)
      --log FORMAT        the request log on stdout: text | json (one object a line)           (default text)
                          json: the first line on stdout is {"event":"ready",…} (URLs, port, keys);
                          the banner goes to stderr
      --fail-on-audit [S] exit 3 at shutdown when the integration audit has a finding of severity S
                          or worse: error (the default) | warning     [AGENT_WORK_SANDBOX_FAIL_ON_AUDIT]
  -q, --quiet             print only the base URL, no request log
  -h, --help              show this help
  -v, --version           show the version
`;

function scenarioNames(values: string[]): ScenarioName[] {
  const names = values
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  return names.map((name) => {
    const found = findScenario(name);
    if (!found)
      throw new UsageError(`--scenario: unknown scenario "${name}". Known scenarios: ${SCENARIO_NAMES.join(', ')}.`);
    return found.name;
  });
}

/** A value and where it came from: `--port` or an environment variable, so that an error names what to change. */
interface Given {
  raw: string | undefined;
  from: string;
}

/** The flag's value, else the first environment variable set, each with its name. */
function given(
  flag: string,
  value: string | undefined,
  env: Record<string, string | undefined>,
  vars: string[],
): Given {
  if (value !== undefined) return { raw: value, from: `--${flag}` };
  const name = vars.find((v) => env[v] !== undefined);
  return { raw: name === undefined ? undefined : env[name], from: name ?? `--${flag}` };
}

function int({ raw, from }: Given, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const n = /^-?[0-9]+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(`${from} must be an integer from ${min} to ${max}; got "${raw}".`);
  return n;
}

/** ` Did you mean X?` when one of the candidates is close to what was typed, else nothing. */
export function didYouMean(typed: string, candidates: readonly string[]): string {
  if (candidates.length === 0) return '';
  const best = closest(typed, [...candidates]);
  return distance(typed, best) <= Math.max(2, Math.floor(best.length / 3)) ? ` Did you mean ${best}?` : '';
}

function stateSync(raw: string | undefined): StateSync {
  if (raw === undefined) return DEFAULT_STATE_SYNC_MS;
  if (raw === 'always' || raw === 'exit') return raw;
  const n = /^[0-9]+$/.test(raw) ? Number(raw) : ms(raw as StringValue);
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 10 || n > 3_600_000)
    throw new UsageError(
      `--state-sync must be always, exit, or an interval from 10ms to 1h (such as 1s or 500); got "${raw}".`,
    );
  return Math.round(n);
}

function webhookUrl(raw: string): string {
  const checked = WEBHOOK_URL().safeParse(raw);
  if (!checked.success) throw new UsageError(`--webhook must be an http or https URL; got "${raw}".`);
  return checked.data;
}

const OPTIONS = {
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  seed: { type: 'string' },
  clock: { type: 'string' },
  scenario: { type: 'string', multiple: true },
  fixtures: { type: 'string' },
  state: { type: 'string' },
  'state-sync': { type: 'string' },
  handlers: { type: 'string' },
  'control-token': { type: 'string' },
  'anonymous-rpm': { type: 'string' },
  webhook: { type: 'string', multiple: true },
  'task-retention': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  log: { type: 'string' },
  'fail-on-audit': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

const FLAGS = Object.keys(OPTIONS).map((name) => `--${name}`);
const COMMANDS = ['fixtures export'];

/**
 * `--seed -1` as `--seed=-1`: node's parser reads a value that starts with a dash as the next option, and then calls
 * the flag "ambiguous".
 */
function joinNegativeValues(argv: string[]): string[] {
  const takesValue = new Set(
    Object.entries(OPTIONS).flatMap(([name, o]) =>
      o.type === 'string' ? [`--${name}`, ...('short' in o ? [`-${o.short}`] : [])] : [],
    ),
  );
  const out: string[] = [];
  argv.forEach((arg, i) => {
    const previous = argv[i - 1];
    if (previous !== undefined && takesValue.has(previous) && /^-[0-9.]/.test(arg))
      out.splice(-1, 1, `${previous}=${arg}`);
    else out.push(arg);
  });
  return out;
}

/** node's parse errors, said for this CLI: the flag, what it takes, a suggestion. */
function parseError(error: unknown): UsageError {
  const { code, message } = error as { code?: string; message: string };
  const option = /'(-[^' ]+)/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
    return new UsageError(`Unknown option ${option}.${didYouMean(option.split('=')[0] ?? option, FLAGS)}`);
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const flag = /(--[a-z-]+)/.exec(message)?.[1] ?? option;
    return new UsageError(/boolean|does not take/.test(message) ? `${flag} takes no value.` : `${flag} needs a value.`);
  }
  return new UsageError(message.split('. ')[0] ?? message);
}

function command(positionals: string[]): CliConfig['command'] {
  if (positionals.length === 0) return 'serve';
  const typed = positionals.join(' ');
  if (typed === 'fixtures export') return 'fixtures-export';
  if (positionals[0] === 'fixtures')
    throw new UsageError(
      positionals.length === 1
        ? 'fixtures needs a subcommand: fixtures export [--fixtures SET] [--seed N] prints a fixture set as JSON.'
        : `Unknown command "${typed}".${didYouMean(typed, COMMANDS)} The fixtures subcommand is: fixtures export.`,
    );
  throw new UsageError(`Unknown command "${typed}".${didYouMean(typed, COMMANDS)}`);
}

/** argv (without node and the script) and the environment → the configuration. Throws UsageError on bad input. */
export function parseCli(argv: string[], env: Record<string, string | undefined> = {}): CliConfig {
  let parsed;
  try {
    parsed = parseArgs({
      args: joinNegativeValues(withFailOnAuditValue(argv)),
      allowPositionals: true,
      strict: true,
      options: OPTIONS,
    });
  } catch (error) {
    throw parseError(error);
  }
  const { values: v, positionals } = parsed;
  const command_ = v.help ? 'help' : v.version ? 'version' : command(positionals);
  const clock = v.clock ?? 'real';
  if (clock !== 'real' && clock !== 'manual') throw new UsageError(`--clock must be real or manual; got "${clock}".`);
  const log = v.log ?? 'text';
  if (log !== 'text' && log !== 'json') throw new UsageError(`--log must be text or json; got "${log}".`);
  return {
    command: command_,
    // The flag, then our variable, then the PORT convention of hosting platforms.
    port: int(given('port', v.port, env, [`${ENV_PREFIX}PORT`, 'PORT']), DEFAULT_PORT, 0, 65535),
    host: v.host ?? env[`${ENV_PREFIX}HOST`] ?? '127.0.0.1',
    seed: int(given('seed', v.seed, env, [`${ENV_PREFIX}SEED`]), 1, -(2 ** 31), 2 ** 31 - 1),
    clock,
    scenarios: scenarioNames(v.scenario ?? []),
    fixtures: v.fixtures,
    state: v.state,
    replacedByState: [
      ...(v.seed !== undefined || env[`${ENV_PREFIX}SEED`] !== undefined ? ['--seed'] : []),
      ...(v.fixtures !== undefined ? ['--fixtures'] : []),
    ],
    stateSync: stateSync(v['state-sync']),
    handlers: v.handlers,
    controlToken: v['control-token'],
    anonymousRpm:
      v['anonymous-rpm'] === undefined
        ? undefined
        : int({ raw: v['anonymous-rpm'], from: '--anonymous-rpm' }, 60, 1, 1_000_000),
    webhooks: (v.webhook ?? []).map(webhookUrl),
    taskRetention:
      v['task-retention'] === undefined
        ? undefined
        : int({ raw: v['task-retention'], from: '--task-retention' }, 10_000, 0, 1_000_000_000),
    quiet: v.quiet ?? false,
    log,
    failOnAudit: failOnAudit(v['fail-on-audit'] ?? env[`${ENV_PREFIX}FAIL_ON_AUDIT`]),
  };
}

/** `--fail-on-audit` may come without its value (then `error`): the value is put in before parsing. */
function withFailOnAuditValue(argv: string[]): string[] {
  return argv.flatMap((arg, i) => {
    const next = argv[i + 1];
    return arg === '--fail-on-audit' && (next === undefined || next.startsWith('-')) ? [arg, 'error'] : [arg];
  });
}

function failOnAudit(raw: string | undefined): CliConfig['failOnAudit'] {
  if (raw === undefined) return undefined;
  if (raw !== 'error' && raw !== 'warning')
    throw new UsageError(`--fail-on-audit must be error or warning; got "${raw}".`);
  return raw;
}
