import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RequestHandler } from 'msw';
import { version } from '../../package.json';
import { createCheckedSandboxCore as createSandbox } from '../sandbox.js';
import type { SandboxCore as Sandbox } from '../sandbox-types.js';
import { FixtureError, parseFixtureSet, type FixtureSet } from '../model/fixture-schema.js';
import { bundledFixtureSet, FIXTURE_SET_NAMES, isFixtureSetName, type FixtureSetName } from '../model/fixture-sets.js';
import { listen, isLoopback, type SandboxServer } from '../server/listen.js';
import {
  assertStateWritable,
  loadStateFile,
  removeStaleTempFiles,
  saveRescueFile,
  saveStateFile,
  StateFileError,
} from '../server/state-file.js';
import { SnapshotError, type StateSnapshot } from '../model/state.js';
import { createStateSaver, type StateSaver, type StateSync } from '../server/durable-state.js';
import { lockStateFile } from '../server/state-lock.js';
import { StartError } from '../errors.js';
import { didYouMean, HELP, parseCli, UsageError, type CliConfig } from './args.js';
import { banner } from './banner.js';
import { readyLine } from './ready-line.js';
import { attachRequestLog } from './request-log.js';
import { webhooksCommand } from './webhooks-command.js';

import { auditExitCode, auditSummary } from './audit-summary.js';
import { fillFromRandomDevice } from './random-device.js';
import { useRandomSource } from '../model/key-index.js';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
}

export interface CliRun {
  sandbox: Sandbox;
  server: SandboxServer;
  /** Stops the server, saves the state file if any; the process's exit code (3: `--fail-on-audit` found findings). */
  stop(): Promise<number>;
}

/**
 * `--fixtures NAME|FILE`: a bundled set's name, or a JSON file validated here so that errors name the file. A file
 * that is not a valid fixture set is a usage error (exit 2), like a file that is not JSON.
 */
function fixturesOption(value: string): FixtureSetName | FixtureSet {
  if (isFixtureSetName(value)) return value;
  try {
    return parseFixtureSet(readFixtures(value), value);
  } catch (error) {
    throw error instanceof FixtureError ? new UsageError(error.message) : error;
  }
}

/** Reads a fixture file (JSON); errors name the file, and a name that is no file lists the bundled sets. */
function readFixtures(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new UsageError(
        `--fixtures: "${path}" is neither a bundled set (${FIXTURE_SET_NAMES.join(', ')}) nor a file.${didYouMean(path, FIXTURE_SET_NAMES)}`,
      );
    throw new UsageError(`Cannot read the fixture file ${path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`The fixture file ${path} is not valid JSON: ${(error as Error).message}`);
  }
}

/** `--handlers FILE`: a module whose default export (or `handlers` export) is an array of msw request handlers. */
async function loadHandlers(path: string): Promise<RequestHandler[]> {
  let mod: { default?: unknown; handlers?: unknown };
  try {
    mod = (await import(pathToFileURL(resolve(path)).href)) as typeof mod;
  } catch (error) {
    throw new UsageError(`Cannot load the handlers module ${path}: ${(error as Error).message}`);
  }
  const list = Array.isArray(mod.handlers) ? mod.handlers : mod.default;
  if (!Array.isArray(list) || !list.every((h) => h && typeof (h as { run?: unknown }).run === 'function')) {
    throw new UsageError(
      `The handlers module ${path} must export an array of msw request handlers (export default [http.get(…), …] or export const handlers = […]).`,
    );
  }
  return list as RequestHandler[];
}

/** `webhooks send|trigger`: its own options (--to, --tamper, …), parsed apart from the server's; a handler that did wrong exits 1. */
async function runWebhooks(argv: string[], io: CliIo): Promise<undefined> {
  const status = await webhooksCommand(argv, io);
  if (status !== 0) process.exitCode = status;
  return undefined;
}

/**
 * The CLI, with argv and output passed in so that it can be tested. Resolves with the running server for `serve`,
 * undefined for the commands that only print. Throws UsageError (and other errors) with a one-line message.
 */
export async function main(argv: string[], io: CliIo): Promise<CliRun | undefined> {
  if (argv[0] === 'webhooks') return runWebhooks(argv.slice(1), io);
  const config = parseCli(argv, io.env);
  if (config.command === 'help' || config.command === 'version' || config.command === 'fixtures-export') {
    io.stdout(
      config.command === 'help'
        ? HELP
        : config.command === 'version'
          ? `${version}\n`
          : `${JSON.stringify(exportedFixtures(config.fixtures ?? 'default', config.seed), null, 2)}\n`,
    );
    return undefined;
  }

  const handlers = config.handlers === undefined ? undefined : await loadHandlers(config.handlers);
  useRandomSource(fillFromRandomDevice);
  const sandbox = createSandbox({
    handlers,
    seed: config.seed,
    clock: config.clock,
    scenarios: config.scenarios,
    fixtures: config.fixtures === undefined ? undefined : fixturesOption(config.fixtures),
    anonymousRpm: config.anonymousRpm,
    webhooks: { endpoints: config.webhooks.map((url) => ({ url })) },
    taskRetention: config.taskRetention,
  });
  if (config.state) assertStateWritable(config.state);
  const lock = config.state ? lockStateFile(config.state) : undefined;
  let run: CliRun;
  try {
    run = await serve(sandbox, config, io, handlers);
  } catch (error) {
    lock?.release();
    throw error;
  }
  return { ...run, stop: () => run.stop().finally(() => lock?.release()) };
}

/** The server of `serve`, with its state file restored and saved as `--state-sync` says. */
async function serve(
  sandbox: Sandbox,
  config: CliConfig,
  io: CliIo,
  handlers: RequestHandler[] | undefined,
): Promise<CliRun> {
  const restored = config.state ? restoreStateFile(sandbox, config.state) : undefined;
  if (restored && config.replacedByState.length > 0)
    io.stderr(
      `agent-work-sandbox: ${config.state} holds a saved state (seed ${restored.seed}): it wins over ${config.replacedByState.join(' and ')}.\n`,
    );
  // Durable --state: saved as --state-sync says (by default within a second of a change), and at exit.
  const saver = config.state ? stateSaver(sandbox, config.state, config.stateSync, io) : undefined;
  const server = await listen(sandbox, {
    handlers,
    port: config.port,
    host: config.host,
    controlToken: config.controlToken,
    beforeAnswer: config.stateSync === 'exit' ? undefined : saver?.beforeAnswer,
    stateFileStatus: saver?.status,
  }).catch((error: unknown) => {
    throw startError(error, config.host, config.port);
  });
  printStart(io, config, { sandbox, server, seed: restored?.seed ?? config.seed });
  if (!config.quiet) attachRequestLog(server.httpServer, config.log, io.stdout);
  let stopped: Promise<number> | undefined;
  return {
    sandbox,
    server,
    stop: () =>
      (stopped ??= (async () => {
        await server.close();
        await saver?.stop();
        const audit = auditSummary(sandbox);
        if (audit) io.stderr(audit);
        if (config.state) saveAtExit(sandbox, config.state, io);
        return auditExitCode(sandbox, config.failOnAudit, io);
      })()),
  };
}

/** What a start printed: the sandbox, its server and the seed it runs on (a state file's when one was loaded). */
interface Started {
  sandbox: Sandbox;
  server: SandboxServer;
  seed: number;
}

/** The start on stdout: the banner (or the base URL alone with --quiet); with --log json, the ready line first. */
function printStart(io: CliIo, config: CliConfig, started: Started): void {
  const { sandbox, server, seed } = started;
  const human = config.quiet
    ? `${server.url}${sandbox.basePath}\n`
    : banner(sandbox, {
        version,
        url: server.url,
        seed,
        clock: config.clock,
        scenarios: config.scenarios,
        controlToken: server.controlToken,
        exposed: !isLoopback(config.host),
        stateFile: config.state,
      });
  if (config.log === 'json') {
    // stdout is for programs: the ready line first, nothing before it; the banner goes to the terminal's stderr.
    io.stdout(readyLine(sandbox, { version, url: server.url, port: server.port, controlToken: server.controlToken }));
    if (!config.quiet) io.stderr(human);
  } else io.stdout(human);
}

/** `fixtures export`: the set `--fixtures` names (a bundled set, drawn with --seed for `default`, or a file), checked. */
function exportedFixtures(value: string, seed: number): FixtureSet {
  const set = fixturesOption(value);
  return typeof set === 'string' ? bundledFixtureSet(set, seed) : set;
}

/**
 * The saver of `--state FILE`. A failed save is loud: on stderr each time, and in the overview the inspector shows.
 * With `always`, the write it was for is undone: the state goes back to the file's (or to the start's, before the
 * first save), so that memory and disk stay in step.
 */
function stateSaver(sandbox: Sandbox, path: string, sync: StateSync, io: CliIo): StateSaver {
  const initial = sync === 'always' && !existsSync(path) ? sandbox.snapshot() : undefined;
  return createStateSaver({
    path,
    sync,
    snapshot: () => sandbox.snapshot(),
    onError: (error) =>
      io.stderr(
        `agent-work-sandbox: ${error.message}${sync === 'always' ? ' The change was refused (503).' : ' The state in memory is not on the disk; the save is retried.'}\n`,
      ),
    rollback: () => {
      const saved = (loadStateFile(path) as StateSnapshot | undefined) ?? initial;
      if (saved) sandbox.restore(saved);
    },
  });
}

/**
 * `--state FILE` at start (checked writable and locked before): loaded when it exists (then its seed, which the
 * banner shows).
 */
function restoreStateFile(sandbox: Sandbox, path: string): { seed: number } | undefined {
  removeStaleTempFiles(path);
  const saved = loadStateFile(path);
  if (saved === undefined) return undefined;
  try {
    sandbox.restore(saved as StateSnapshot); // checked by restore(): a SnapshotError names what is wrong
    return { seed: sandbox.seed };
  } catch (error) {
    if (!(error instanceof SnapshotError)) throw error;
    throw new StateFileError(
      `The state file ${path} cannot be loaded: ${error.message.replace(/\n/g, '\n  ')}\nIt was left untouched; move it away, fix it, or pass another --state file.`,
    );
  }
}

/** The state saved at exit; when that fails, kept in a rescue file (the previous state file is untouched), and said where. */
function saveAtExit(sandbox: Sandbox, path: string, io: CliIo): void {
  const snapshot = sandbox.snapshot();
  try {
    saveStateFile(path, snapshot);
  } catch (error) {
    const rescue = saveRescueFile(snapshot);
    throw new StateFileError(
      `${error instanceof Error ? error.message : String(error)}${rescue ? ` This session's state was saved to ${rescue} instead.` : ''}`,
    );
  }
  io.stderr(`agent-work-sandbox: state saved to ${path}\n`);
}

/** A failed listen as the CLI says it (port in use, no permission, no such address), else the error itself. */
function startError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE')
    return new StartError(
      `Port ${String(port)} on ${host} is already in use. Choose another with --port or PORT (0 picks a free one).`,
    );
  if (code === 'EACCES')
    return new StartError(`No permission to listen on ${host}:${String(port)}. Choose a port above 1023 with --port.`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new StartError(`Cannot listen on host ${host}: the address is not available here.`);
  return error;
}
