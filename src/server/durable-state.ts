import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StateSnapshot } from '../model/state.js';
import { saveStateFile, saveStateFileAsync } from './state-file.js';

/**
 * When `--state` writes the state file:
 * - `always`: before the answer of every request that may write (any method but GET, HEAD and OPTIONS), so an
 *   acknowledged write is on the disk before the client hears of it; other changes (usage counts, clock) within
 *   the interval as below;
 * - a number of ms (default 1000): at most that long after a change (write-behind, off the event loop: one save per
 *   interval at most, so a slow disk never stalls the answers);
 * - `exit`: only when the server stops (the old behaviour: a crash loses the session).
 */
export type StateSync = 'always' | 'exit' | number;

export const DEFAULT_STATE_SYNC_MS = 1000;

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface StateSaver {
  /** The server's hook: called just before each answer's head is written. */
  beforeAnswer: (req: IncomingMessage, res: ServerResponse) => void;
  /** Saves now if anything changed since the last save. */
  flush(): void;
  /** No more periodic saves; resolves once a save in progress has finished (the exit save comes after it). */
  stop(): Promise<void>;
  /** Saves written so far (for tests and the benchmark). */
  readonly saves: number;
}

/** Saves `snapshot()` to `path` as `sync` says. A save that fails is reported through `onError` and retried later. */
export function createStateSaver(
  path: string,
  snapshot: () => StateSnapshot,
  sync: StateSync,
  onError: (error: Error) => void,
): StateSaver {
  let dirty = false;
  let saves = 0;
  let pending: Promise<void> | undefined;
  const saveBehind = () => {
    if (pending) return; // the next tick of the interval picks up what changed meanwhile
    dirty = false;
    pending = saveStateFileAsync(path, snapshot())
      .then(
        () => void (saves += 1),
        (error: unknown) => {
          dirty = true;
          onError(error instanceof Error ? error : new Error(String(error)));
        },
      )
      .finally(() => (pending = undefined));
  };
  const save = () => {
    dirty = false;
    try {
      saveStateFile(path, snapshot());
      saves += 1;
    } catch (error) {
      dirty = true;
      onError(error as Error);
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
      if (sync === 'always' && !READS.has(req.method ?? 'GET')) save();
      else dirty = true;
    },
    flush: () => dirty && save(),
    stop: async () => {
      clearInterval(timer);
      await pending;
    },
    get saves() {
      return saves;
    },
  };
}

/** Calls `hook` just before the head of `res` is written (whichever way it is: writeHead, or an implicit one by end). */
export function onAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  hook: (req: IncomingMessage, res: ServerResponse) => void,
): void {
  const writeHead = res.writeHead; // eslint-disable-line @typescript-eslint/unbound-method -- put back and applied with its own `this` below
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    res.writeHead = writeHead;
    hook(req, res);
    return writeHead.apply(this, args as Parameters<typeof writeHead>);
  };
}
