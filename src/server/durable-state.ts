import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StateSnapshot } from '../model/state.js';
import { ERRORS, errorBody } from '../rules/errors.js';
import { JSON_CONTENT_TYPE } from '../core/handle.js';
import { saveStateFile, saveStateFileAsync } from './state-file.js';

/**
 * When `--state` writes the state file:
 * - `always`: before the answer of every request that may write (any method but GET, HEAD and OPTIONS), so an
 *   acknowledged write is on the disk before the client hears of it; a save that fails turns the answer into a 503
 *   and puts the state back as the file has it; other changes (usage counts, clock) within the interval as below;
 * - a number of ms (default 1000): at most that long after a change (write-behind, off the event loop: one save per
 *   interval at most, so a slow disk never stalls the answers);
 * - `exit`: only when the server stops (the old behaviour: a crash loses the session).
 */
export type StateSync = 'always' | 'exit' | number;

export const DEFAULT_STATE_SYNC_MS = 1000;

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** How the state file's saves go, as the overview and the inspector show it (snake_case: it is on the wire). */
export interface StateFileStatus {
  path: string;
  sync: 'always' | 'exit' | 'interval';
  saves: number;
  failed_saves: number;
  /** The real time of the last save that worked (ISO), null before the first. */
  last_saved_at: string | null;
  /** Since when every save has failed (ISO), null while saves work: the state in memory is not on the disk. */
  failing_since: string | null;
  last_error: string | null;
}

export interface StateSaver {
  /** The server's hook, called just before each answer's head: an error when the answer must not acknowledge. */
  beforeAnswer: (req: IncomingMessage, res: ServerResponse) => Error | undefined;
  /** Saves now if anything changed since the last save. */
  flush(): void;
  /** No more periodic saves; resolves once a save in progress has finished (the exit save comes after it). */
  stop(): Promise<void>;
  /** Saves written so far (for tests and the benchmark). */
  readonly saves: number;
  /** How the saves go (a plain function: passed around unbound). */
  status: () => StateFileStatus;
}

export interface StateSaverOptions {
  path: string;
  snapshot: () => StateSnapshot;
  sync: StateSync;
  /** Told every failed save (the CLI writes it to stderr). */
  onError: (error: Error) => void;
  /** With `always`: puts the state in memory back as the file has it, after a save that failed. */
  rollback?: () => void;
  /** The real time (ms), for the status. */
  now?: () => number;
  /** The writer (tests put a failing one here). */
  write?: (path: string, snapshot: StateSnapshot) => void;
}

/** Saves `snapshot()` to `path` as `sync` says. A save that fails is reported, retried later, and shown in `status`. */
export function createStateSaver(options: StateSaverOptions): StateSaver {
  const { path, snapshot, sync, onError, rollback, now = Date.now, write = saveStateFile } = options;
  let dirty = false;
  let pending: Promise<void> | undefined;
  const status: StateFileStatus = {
    path,
    sync: typeof sync === 'number' ? 'interval' : sync,
    saves: 0,
    failed_saves: 0,
    last_saved_at: null,
    failing_since: null,
    last_error: null,
  };
  const saved = () => {
    status.saves += 1;
    status.last_saved_at = new Date(now()).toISOString();
    status.failing_since = null;
  };
  const failed = (error: unknown): Error => {
    const e = error instanceof Error ? error : new Error(String(error));
    dirty = true;
    status.failed_saves += 1;
    status.failing_since ??= new Date(now()).toISOString();
    status.last_error = e.message;
    onError(e);
    return e;
  };
  const saveBehind = () => {
    if (pending) return; // the next tick of the interval picks up what changed meanwhile
    dirty = false;
    pending = saveStateFileAsync(path, snapshot())
      .then(saved, (error: unknown) => void failed(error))
      .finally(() => (pending = undefined));
  };
  const save = (): Error | undefined => {
    dirty = false;
    try {
      write(path, snapshot());
      saved();
      return undefined;
    } catch (error) {
      return failed(error);
    }
  };
  const interval = sync === 'exit' ? undefined : sync === 'always' ? DEFAULT_STATE_SYNC_MS : sync;
  // In `always` mode every save is synchronous, so that an older snapshot written behind can never land after a newer one.
  const timer =
    interval === undefined
      ? undefined
      : setInterval(() => dirty && (sync === 'always' ? save() : saveBehind()), interval);
  timer?.unref();
  return {
    beforeAnswer(req) {
      if (sync !== 'always' || READS.has(req.method ?? 'GET')) {
        dirty = true;
        return undefined;
      }
      const error = save();
      if (error && rollback) {
        rollback();
        dirty = false; // memory is the file again
      }
      return error;
    },
    flush: () => {
      if (dirty) save();
    },
    stop: async () => {
      clearInterval(timer);
      await pending;
    },
    get saves() {
      return status.saves;
    },
    status: () => ({ ...status }),
  };
}

/** The answer that replaces one whose write could not be saved. */
const UNSAVED = errorBody(
  'service_unavailable',
  'The change could not be saved to the state file, so it was not made. Please retry later.',
);

/**
 * Calls `hook` just before the head of `res` is written (whichever way it is: writeHead, or an implicit one by end).
 * When the hook returns an error, the answer becomes a 503 `service_unavailable` (its other headers kept).
 */
export function onAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  hook: (req: IncomingMessage, res: ServerResponse) => Error | undefined,
): void {
  /* eslint-disable @typescript-eslint/unbound-method -- put back and applied with their own `this` below */
  const writeHead = res.writeHead;
  const end = res.end;
  /* eslint-enable @typescript-eslint/unbound-method */
  let refused = false;
  const head = (self: ServerResponse, args: unknown[]) => {
    res.writeHead = writeHead;
    refused = hook(req, res) !== undefined;
    if (!refused) return writeHead.apply(self, args as Parameters<typeof writeHead>);
    const headers = Array.isArray(args[1]) || typeof args[1] === 'object' ? args[1] : args[2];
    for (const [name, value] of Object.entries(flatHeaders(headers)))
      if (!/^content-(length|type)$/i.test(name)) res.setHeader(name, value);
    res.removeHeader('content-length');
    res.setHeader('Retry-After', '1');
    return writeHead.call(self, ERRORS.service_unavailable.status, { 'Content-Type': JSON_CONTENT_TYPE });
  };
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    return head(this, args);
  };
  // An implicit head (end with the head not yet written) is taken here, so that a refused answer's body is replaced.
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    res.end = end;
    if (!res.headersSent) head(this, [res.statusCode]);
    if (refused) return end.call(this, UNSAVED, 'utf8');
    return end.apply(this, args as Parameters<typeof end>);
  } as typeof res.end;
}

/** The headers given to writeHead (an object, or a flat [name, value, …] list) as an object. */
function flatHeaders(headers: unknown): Record<string, string | string[] | number> {
  if (Array.isArray(headers)) {
    const out: Record<string, string> = {};
    for (let i = 0; i + 1 < headers.length; i += 2) out[String(headers[i])] = String(headers[i + 1]);
    return out;
  }
  return (headers ?? {}) as Record<string, string>;
}
