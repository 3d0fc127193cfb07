import { headersOf, pushHeaders } from './journal-headers.js';
import {
  STRIDE,
  TRACE_OUTCOMES as OUTCOMES,
  TRACE_STEPS as STEPS,
  type RawTrace,
  type TraceOutcome,
  type TraceStepName,
} from './trace.js';
import type { PlainRequest, PlainResponse } from './types.js';

/**
 * The journal's storage: its last N requests in columns, so that a recorded request leaves almost nothing for the
 * garbage collector to trace. Each entry is a few numbers in typed arrays, references to the strings it shows (method,
 * error code, key and account ids, the two bodies: mostly texts the sandbox keeps anyway), and one flat string holding
 * the request's other texts (path, query, headers, the trace's texts) joined by NUL. Held as objects (the door's request
 * and header objects, the response, the trace array with its boxed numbers), an entry would be about 25 young objects
 * that every scavenge copies and then promotes. What that buys a user is small (docs/decisions/performance.md): plain
 * entries are to replace it, behind the same `Journal`.
 */

/** What the journal reads back of one entry. */
export interface StoredEntry {
  seq: number;
  id: number;
  at: number;
  status: number;
  code: string | null;
  keyId: string | null;
  accountId: string | null;
  scenarios: string[];
  basePath: string;
  method: string;
  path: string;
  query: string;
  request: { headers: Record<string, string>; body: string };
  /** `null` when nothing was answered (a failed connection, or the user's own handlers answered). */
  response: { headers: Record<string, string>; body: string } | null;
  trace: RawTrace;
}

/** The fields of one entry that are not texts of the request. */
export interface EntryFacts {
  id: number;
  at: number;
  basePath: string;
  status: number;
  code: string | null;
  keyId: string | null;
  accountId: string | null;
  scenarios: string[];
  trace: RawTrace;
}

/** Bodies in the journal are cut at this many characters. */
const BODY_LIMIT = 16 * 1024;
const cut = (body: string) => (body.length > BODY_LIMIT ? body.slice(0, BODY_LIMIT) : body);

const SEP = '\u0000';
const holdsSeparator = (text: string) => text.includes(SEP);

/** Steps an entry keeps in columns; a longer trace (none today) is kept as an array. */
const MAX_STEPS = 16;
/** Per step in `steps`: the step, its outcome and the kind of each of its four figures. */
const STEP_BYTES = 6;
const FIGURES = STRIDE - 2;
/** The kind of a figure, in `steps`. */
const UNDEFINED = 0;
const NULL = 1;
const FALSE = 2;
const TRUE = 3;
const NUMBER = 4;
const TEXT = 5;
const OVERFLOW = 0xffffffff;

/** References kept per entry, in `refs`. */
const enum Ref {
  Method,
  Code,
  KeyId,
  AccountId,
  Scenarios,
  BasePath,
  /**
   * The bodies, by reference: an answer is often a text the sandbox keeps anyway (an agent page, a finished task),
   * which a copy would turn into a young one (a few KB for every `GET /ext/agents`).
   */
  RequestBody,
  ResponseBody,
  /** The texts joined by NUL, or (when a text holds a NUL itself) the array of texts. */
  Texts,
  Size,
}

/** The texts of the entry being recorded (one array, reused). */
const pieces: string[] = [];

export class JournalStore {
  private nums = new Float64Array(0);
  private refs: unknown[] = [];
  /** Per entry: request headers, response headers + 1 (0: no response), trace steps (OVERFLOW: in `overflow`). */
  private counts = new Uint32Array(0);
  private steps = new Uint8Array(0);
  private figures = new Float64Array(0);
  private readonly overflow = new Map<number, RawTrace>();
  private allocated = 0;

  constructor(readonly capacity: number) {}

  write(slot: number, seq: number, facts: EntryFacts, request: PlainRequest, response: PlainResponse | undefined) {
    if (slot >= this.allocated) this.grow();
    const n = slot * 4;
    this.nums[n] = seq;
    this.nums[n + 1] = facts.id;
    this.nums[n + 2] = facts.at;
    this.nums[n + 3] = facts.status;
    const answered = response !== undefined && !response.networkError;
    pieces.length = 0;
    pieces.push(request.path, request.query);
    const c = slot * 3;
    this.counts[c] = pushHeaders(pieces, request.headers);
    this.counts[c + 1] = answered ? pushHeaders(pieces, response.headers) + 1 : 0;
    this.counts[c + 2] = this.writeTrace(slot, facts.trace);
    const r = slot * Ref.Size;
    const refs = this.refs;
    refs[r + Ref.Method] = request.method;
    refs[r + Ref.Code] = facts.code;
    refs[r + Ref.KeyId] = facts.keyId;
    refs[r + Ref.AccountId] = facts.accountId;
    refs[r + Ref.Scenarios] = facts.scenarios;
    refs[r + Ref.BasePath] = facts.basePath;
    refs[r + Ref.RequestBody] = request.body;
    refs[r + Ref.ResponseBody] = answered ? response.body : '';
    refs[r + Ref.Texts] = pieces.some(holdsSeparator) ? pieces.slice() : pieces.join(SEP);
  }

  /** Whether the slot holds an entry. */
  has(slot: number): boolean {
    return slot < this.allocated && this.nums[slot * 4] !== 0;
  }

  idAt(slot: number): number {
    return this.nums[slot * 4 + 1] as number;
  }

  /** The fields of a list of requests, without splitting every text of the entry. */
  summary(slot: number): Omit<StoredEntry, 'request' | 'response' | 'trace'> {
    const n = slot * 4;
    const r = slot * Ref.Size;
    const refs = this.refs;
    const texts = refs[r + Ref.Texts] as string | string[];
    let path: string;
    let query: string;
    if (typeof texts === 'string') {
      const a = texts.indexOf(SEP);
      const b = texts.indexOf(SEP, a + 1);
      path = texts.slice(0, a);
      query = b === -1 ? texts.slice(a + 1) : texts.slice(a + 1, b);
    } else [path = '', query = ''] = texts;
    return {
      seq: this.nums[n] as number,
      id: this.nums[n + 1] as number,
      at: this.nums[n + 2] as number,
      status: this.nums[n + 3] as number,
      method: refs[r + Ref.Method] as string,
      code: refs[r + Ref.Code] as string | null,
      keyId: refs[r + Ref.KeyId] as string | null,
      accountId: refs[r + Ref.AccountId] as string | null,
      scenarios: refs[r + Ref.Scenarios] as string[],
      basePath: refs[r + Ref.BasePath] as string,
      path,
      query,
    };
  }

  /** One entry, whole. */
  read(slot: number): StoredEntry {
    const r = slot * Ref.Size;
    const texts = this.refs[r + Ref.Texts] as string | string[];
    const parts = typeof texts === 'string' ? texts.split(SEP) : texts;
    const c = slot * 3;
    const requestHeaders = headersOf(parts, 2, this.counts[c] as number);
    const responseCount = this.counts[c + 1] as number;
    let next = 2 + 2 * (this.counts[c] as number);
    const response =
      responseCount === 0
        ? null
        : { headers: headersOf(parts, next, responseCount - 1), body: cut(this.refs[r + Ref.ResponseBody] as string) };
    next += 2 * Math.max(0, responseCount - 1);
    return {
      ...this.summary(slot),
      request: { headers: requestHeaders, body: cut(this.refs[r + Ref.RequestBody] as string) },
      response,
      trace: this.readTrace(slot, parts, next),
    };
  }

  private writeTrace(slot: number, trace: RawTrace): number {
    const count = trace.length / STRIDE;
    if (count > MAX_STEPS) return this.keepWhole(slot, trace);
    const { steps, figures } = this;
    let s = slot * MAX_STEPS * STEP_BYTES;
    let f = slot * MAX_STEPS * FIGURES;
    for (let i = 0; i < trace.length; i += STRIDE, s += STEP_BYTES) {
      const step = STEPS.indexOf(trace[i] as TraceStepName);
      const outcome = OUTCOMES.indexOf(trace[i + 1] as TraceOutcome);
      if (step === -1 || outcome === -1) return this.keepWhole(slot, trace);
      steps[s] = step;
      steps[s + 1] = outcome;
      for (let k = 0; k < FIGURES; k++, f++) {
        const value = trace[i + 2 + k];
        let kind: number;
        if (typeof value === 'number') {
          kind = NUMBER;
          figures[f] = value;
        } else if (typeof value === 'string') {
          kind = TEXT;
          pieces.push(value);
        } else kind = value === undefined ? UNDEFINED : value === null ? NULL : value ? TRUE : FALSE;
        steps[s + 2 + k] = kind;
      }
    }
    this.overflow.delete(slot);
    return count;
  }

  private keepWhole(slot: number, trace: RawTrace): number {
    this.overflow.set(slot, trace.slice());
    return OVERFLOW;
  }

  private readTrace(slot: number, parts: readonly string[], first: number): RawTrace {
    const count = this.counts[slot * 3 + 2] as number;
    if (count === OVERFLOW) return this.overflow.get(slot) ?? [];
    const { steps, figures } = this;
    const out: RawTrace = [];
    let next = first;
    let s = slot * MAX_STEPS * STEP_BYTES;
    let f = slot * MAX_STEPS * FIGURES;
    for (let i = 0; i < count; i++, s += STEP_BYTES) {
      out.push(STEPS[steps[s] as number], OUTCOMES[steps[s + 1] as number]);
      for (let k = 0; k < FIGURES; k++, f++) {
        const kind = steps[s + 2 + k];
        out.push(
          kind === NUMBER
            ? figures[f]
            : kind === TEXT
              ? parts[next++]
              : kind === NULL
                ? null
                : kind === UNDEFINED
                  ? undefined
                  : kind === TRUE,
        );
      }
    }
    return out;
  }

  /** Columns for twice as many entries (up to the capacity): a small journal never holds room for a large one. */
  private grow(): void {
    const size = Math.min(this.capacity, Math.max(64, this.allocated * 2));
    this.nums = widened(this.nums, new Float64Array(size * 4));
    this.counts = widened(this.counts, new Uint32Array(size * 3));
    this.steps = widened(this.steps, new Uint8Array(size * MAX_STEPS * STEP_BYTES));
    this.figures = widened(this.figures, new Float64Array(size * MAX_STEPS * FIGURES));
    this.refs.length = size * Ref.Size;
    this.allocated = size;
  }
}

function widened<T extends Float64Array | Uint32Array | Uint8Array>(old: T, into: T): T {
  into.set(old);
  return into;
}
