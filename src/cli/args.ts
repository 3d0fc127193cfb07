import { UsageError } from '../errors.js';
import { parseArgs } from 'node:util';
import type { ClockMode } from '../model/clock.js';
import { findScenario, SCENARIO_NAMES, type ScenarioName } from '../scenarios/catalog.js';
import { webhookUrl as WEBHOOK_URL } from '../schemas.js';
import ms, { type StringValue } from 'ms';
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
}

export { UsageError };

export const HELP = `Usage: agent-work-sandbox [options]
       agent-work-sandbox fixtures export [--seed N]   print the default fixture set as JSON

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

function int(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const n = /^-?[0-9]+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}; got "${raw}".`);
  return n;
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

/** argv (without node and the script) and the environment → the configuration. Throws UsageError on bad input. */
export function parseCli(argv: string[], env: Record<string, string | undefined> = {}): CliConfig {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
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
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values: v, positionals } = parsed;
  let command: CliConfig['command'] = 'serve';
  if (v.help) command = 'help';
  else if (v.version) command = 'version';
  else if (positionals.length > 0) {
    if (positionals[0] === 'fixtures' && positionals[1] === 'export' && positionals.length === 2)
      command = 'fixtures-export';
    else throw new UsageError(`Unknown command "${positionals.join(' ')}".`);
  }
  const clock = v.clock ?? 'real';
  if (clock !== 'real' && clock !== 'manual') throw new UsageError(`--clock must be real or manual; got "${clock}".`);
  const log = v.log ?? 'text';
  if (log !== 'text' && log !== 'json') throw new UsageError(`--log must be text or json; got "${log}".`);
  return {
    command,
    // The flag, then our variable, then the PORT convention of hosting platforms.
    port: int('port', v.port ?? env[`${ENV_PREFIX}PORT`] ?? env.PORT, DEFAULT_PORT, 0, 65535),
    host: v.host ?? env[`${ENV_PREFIX}HOST`] ?? '127.0.0.1',
    seed: int('seed', v.seed ?? env[`${ENV_PREFIX}SEED`], 1, -(2 ** 31), 2 ** 31 - 1),
    clock,
    scenarios: scenarioNames(v.scenario ?? []),
    fixtures: v.fixtures,
    state: v.state,
    stateSync: stateSync(v['state-sync']),
    handlers: v.handlers,
    controlToken: v['control-token'],
    anonymousRpm:
      v['anonymous-rpm'] === undefined ? undefined : int('anonymous-rpm', v['anonymous-rpm'], 60, 1, 1_000_000),
    webhooks: (v.webhook ?? []).map(webhookUrl),
    taskRetention:
      v['task-retention'] === undefined
        ? undefined
        : int('task-retention', v['task-retention'], 10_000, 0, 1_000_000_000),
    quiet: v.quiet ?? false,
    log,
  };
}
