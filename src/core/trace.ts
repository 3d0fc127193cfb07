import { nanoToUsd } from '../model/money.js';
import { maskKeys } from './mask.js';

/** One step of the decision trace of a request, as read (journal, `sandbox.explain`, the inspector). */
export interface TraceStep {
  step: TraceStepName;
  outcome: TraceOutcome;
  detail: string;
  figures?: Record<string, number | string | boolean | null>;
}

export type TraceStepName =
  | 'key'
  | 'rate'
  | 'scenario'
  | 'route'
  | 'scope'
  | 'body'
  | 'resource'
  | 'idempotency'
  | 'tpm'
  | 'balance'
  | 'answer'
  | 'header'
  | 'query';
export type TraceOutcome = 'pass' | 'fail' | 'skip' | 'applied';

type Raw = string | number | boolean | null | undefined;
/** Up to four raw figures of a step. */
type RawFigures = [a?: Raw, b?: Raw, c?: Raw, d?: Raw];

/**
 * The steps of one request as recorded on the hot path, in the order they were decided: one flat array, six slots a
 * step (the step, its outcome and up to four raw figures: numbers, ids, epoch ms, nano-dollars), so that a request's
 * trace is one allocation. Nothing is formatted until the trace is read (`formatTrace`).
 */
export type RawTrace = Raw[];

/** Slots per step in a `RawTrace`. */
export const STRIDE = 6;

/** Records one step. */
export function addStep(trace: RawTrace, step: TraceStepName, outcome: TraceOutcome, ...figures: RawFigures): void {
  trace.push(step, outcome, figures[0], figures[1], figures[2], figures[3]);
}

type Figures = NonNullable<TraceStep['figures']>;
interface Formatted {
  detail: string;
  figures?: Figures;
}

/** The raw figures each step records (`addStep`'s `a`–`d`), in order. */
interface StepFigures {
  /** pass: key id, account id; fail: reason, the key masked. */
  key: [idOrReason: string, accountOrMaskedKey?: string];
  scenario: [names: string, effect: string | null];
  /** limit, used, epoch ms of the window's end, whether the anonymous bucket. */
  rate: [limit: number, used: number, resetAt: number, anonymous: boolean];
  /** pass: the endpoint; fail: method and path, the methods the path allows, the nearest path. */
  route: [endpointOrRequest: string, allowed?: string | null, nearest?: string | null];
  scope: [required: string, granted?: string];
  /** fail: the message. */
  body: [message?: string];
  resource: [kind: string, id: string, otherAccount?: boolean];
  idempotency: [key?: string];
  tpm: [tpm: number, usedBefore: number, needed: number];
  /** nano-dollars. */
  balance: [balance: number, held: number, estimated: number, spendable: number];
  answer: [status: number, code: string | null];
  /** A request header the sandbox reads (X-Sandbox-Scenario), and what is wrong with it. */
  header: [name: string, message: string];
  /** A query parameter, and what is wrong with it. */
  query: [name: string, message: string];
}

type Format<S extends TraceStepName> = (outcome: TraceOutcome, figures: StepFigures[S]) => Formatted;

const iso = (ms: number) => new Date(ms).toISOString();
const usd = (nano: number) => Number(nanoToUsd(nano).toFixed(9));

const KEY_FAILURES: Record<string, string> = {
  missing: 'No API key: the Authorization header is missing or not "Bearer <key>".',
  malformed: 'The credential is not of the form ak_<key>.',
  unknown: 'No such API key.',
  revoked: 'The API key has been revoked.',
  scenario: 'The key is treated as revoked (scenario revoked-key).',
  'in-query':
    'No API key in the Authorization header, but one in the query string: send it as "Authorization: Bearer <key>" instead (and rotate it: URLs end up in logs).',
};

/** How each step's tuple reads: the detail sentence and the figures that mattered. */
const FORMATS: { [S in TraceStepName]: Format<S> } = {
  // key: pass [keyId, accountId] | fail [reason, maskedKey]
  key: (o, [a, b]): Formatted =>
    o === 'pass'
      ? { detail: `Key ${a} of account ${b ?? ''}.`, figures: { key_id: a, account_id: b ?? null } }
      : { detail: KEY_FAILURES[a] ?? 'Invalid API key.', figures: { reason: a, key: b ?? null } },
  // scenario: applied [names, effect]
  scenario: (_o, [a, b]) => ({
    detail: `Scenario ${a} in force${b ? `: ${b}` : ''}.`,
    figures: { scenarios: a, effect: b ?? null },
  }),
  // rate: [limit, used, resetAt, anonymous]
  rate: (o, [limit, used, resetAt, anonymous]) => ({
    detail: `${used} of ${limit} requests per minute used${anonymous ? ' (anonymous bucket, per client)' : ''}; ${o === 'fail' ? 'over the limit' : 'admitted'}, window resets ${iso(resetAt)}.`,
    figures: { limit, used, remaining: Math.max(0, limit - used), reset: iso(resetAt), anonymous },
  }),
  // route: pass [endpoint] | fail [method path, allowed methods, nearest path]
  route: (o, [a, allowed, nearest]): Formatted =>
    o === 'pass'
      ? { detail: `Route ${a}.`, figures: { endpoint: a } }
      : {
          detail: `No route for ${a}.${allowed ? ` This path answers ${allowed} only.` : nearest ? ` Did you mean ${nearest}?` : ''}`,
          figures: { request: a, allowed_methods: allowed ?? null, did_you_mean: nearest ?? null },
        },
  // scope: [required, granted]
  scope: (o, [required, granted]): Formatted => ({
    detail:
      o === 'pass'
        ? `The key has '${required}' (or admin).`
        : `The key lacks '${required}'; it has: ${granted || 'none'}.`,
    // No `granted` figure when the scope is granted (as it reads in JSON).
    figures: granted === undefined ? { required } : { required, granted },
  }),
  // body: pass [] | fail [message]
  body: (o, [a]) => (o === 'pass' ? { detail: 'The body is valid.' } : { detail: String(a) }),
  // resource: [kind, id]
  resource: (o, [kind, id, other]) => ({
    detail:
      o === 'pass'
        ? `The ${kind} ${id} exists.`
        : other
          ? `No ${kind} ${id} for this account: it belongs to another account. Send a key of that account.`
          : `No ${kind} ${id} (for this account).`,
    figures: other ? { [`${kind}_id`]: id, other_account: true } : { [`${kind}_id`]: id },
  }),
  // idempotency: skip [] | pass/applied/fail [key]
  idempotency: (o, [key]) => ({
    detail:
      o === 'skip'
        ? 'No Idempotency-Key: a retry of this request would create a second task.'
        : o === 'applied'
          ? 'Idempotency-Key seen before with the same body: the first task is replayed, nothing is charged again.'
          : o === 'fail'
            ? 'Idempotency-Key seen before with another body (or its task is no longer stored).'
            : 'New Idempotency-Key: stored for 24 hours.',
    figures: o === 'skip' ? undefined : { idempotency_key: key ?? null },
  }),
  // tpm: [tpm, usedBefore, needed]
  tpm: (o, [tpm, used, needed]) => ({
    detail: `This task needs about ${needed} tokens; ${Math.max(0, tpm - used)} of ${tpm} tokens per minute remain${o === 'fail' ? ': over the limit' : ''}${needed > tpm ? `, and it never fits at this limit (more than the whole ${tpm}). Shorten the description, choose an agent with less output, or move to a plan with a higher limit` : ''}.`,
    figures: { tpm, used, needed, remaining: Math.max(0, tpm - used), never_fits: needed > tpm },
  }),
  // balance: [balanceNano, heldNano, estimatedNano, spendableNano]
  balance: (o, [balance, held, estimated, spendable]) => ({
    detail: `Estimated cost $${usd(estimated)} against $${usd(spendable)} spendable (balance $${usd(balance)}, held $${usd(held)})${o === 'fail' ? ': not enough credit' : '; the estimate is held until the task ends'}.`,
    figures: {
      balance_usd: usd(balance),
      held_usd: usd(held),
      estimated_cost_usd: usd(estimated),
      spendable_usd: usd(spendable),
    },
  }),
  // answer: [status, code]
  answer: (_o, [status, code]) => ({
    detail: status === 0 ? 'The connection fails (no answer).' : `${status}${code ? ` ${code}` : ''}.`,
    figures: { status, code: code ?? null },
  }),
  header: (_o, [name, message]) => ({ detail: message, figures: { header: name } }),
  query: (_o, [name, message]) => ({ detail: message, figures: { parameter: name } }),
};

/**
 * The trace as read: one `{ step, outcome, detail, figures }` per recorded tuple. `mask` is applied to the detail
 * and to every text figure (the journal masks API keys there: a path, an id or a method may carry one).
 */
export function formatTrace(raw: RawTrace, mask: (text: string) => string = (text) => text): TraceStep[] {
  const out: TraceStep[] = [];
  for (let i = 0; i < raw.length; i += STRIDE) {
    const step = raw[i] as TraceStepName;
    const outcome = raw[i + 1] as TraceOutcome;
    // The slots hold the figures `addStep` recorded for this step (StepFigures[step]).
    const format = FORMATS[step] as unknown as (outcome: TraceOutcome, figures: RawFigures) => Formatted;
    const { detail, figures } = format(outcome, [raw[i + 2], raw[i + 3], raw[i + 4], raw[i + 5]]);
    if (figures)
      for (const [name, value] of Object.entries(figures)) if (typeof value === 'string') figures[name] = mask(value);
    out.push(figures ? { step, outcome, detail: mask(detail), figures } : { step, outcome, detail: mask(detail) });
  }
  return out;
}

/**
 * The `X-Sandbox-Trace` header: `key=pass; rate=pass 3/60; …; answer=201`, a failing step with its reason and figures
 * (`balance=fail need=$0.0144 spendable=$0.000001`). ASCII, no secrets, no sentences.
 */
export function traceHeader(raw: RawTrace): string {
  const parts: string[] = [];
  for (let i = 0; i < raw.length; i += STRIDE) {
    const [step, outcome, ...figures] = raw.slice(i, i + STRIDE);
    const said = step === 'answer' ? 'answer=' : `${String(step)}=${String(outcome)}`;
    const extra = headerFigures(step as TraceStepName, outcome === 'fail', figures as RawFigures);
    parts.push(step === 'answer' ? `${said}${extra}` : extra ? `${said} ${extra}` : said);
  }
  return parts.join('; ');
}

/** What a step adds to its `step=outcome` in the header: the figures that decided it, or a failure's reason. */
function headerFigures(step: TraceStepName, failed: boolean, figures: RawFigures): string {
  const [a, b, c] = figures;
  switch (step) {
    case 'rate':
      return failed ? `${b}/${a} reset=${iso(c as number)}` : `${b}/${a}`;
    case 'tpm': {
      const left = Math.max(0, (a as number) - (b as number));
      return `need=${c} left=${left}/${a}${(c as number) > (a as number) ? ' never-fits' : ''}`;
    }
    case 'answer':
      return `${a}${b ? ` ${b}` : ''}`;
    case 'scenario':
      return String(a).replace(/, /g, ',');
    default:
      return failed ? failureFigures(step, figures) : '';
  }
}

function failureFigures(step: TraceStepName, figures: RawFigures): string {
  const [a, b, c, d] = figures;
  switch (step) {
    case 'key':
      return String(a);
    case 'scope':
      return String(a);
    case 'balance':
      return `need=$${usd(c as number)} spendable=$${usd(d as number)}`;
    case 'resource':
      return `${a} ${ascii(b)}${c ? ' other-account' : ''}`;
    case 'route':
      return b ? `allow=${String(b).replace(/, /g, ',')}` : c ? `did-you-mean=${ascii(c)}` : '';
    case 'header':
    case 'query':
      return String(a);
    default:
      return '';
  }
}

/** A figure the client sent (an id, a path): keys masked, kept to printable ASCII for the header. */
function ascii(value: Raw): string {
  return maskKeys(String(value)).replace(/[^\x21-\x7e]/g, '?');
}

/** Whether the last step recorded failed (a failure already explained). */
export function lastFailed(raw: RawTrace): boolean {
  return raw.length > 0 && raw[raw.length - STRIDE + 1] === 'fail';
}

/** The index of a step's first slot in the trace, or -1. */
export function stepIndex(raw: RawTrace, step: TraceStepName): number {
  for (let i = 0; i < raw.length; i += STRIDE) if (raw[i] === step) return i;
  return -1;
}
