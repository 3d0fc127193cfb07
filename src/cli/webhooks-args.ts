import { parseArgs } from 'node:util';
import { UsageError } from '../errors.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhooks/events.js';
import type { WebhookTamper } from '../webhooks/kit-verdicts.js';
import { WEBHOOK_TAMPERS, webhookUrl as WEBHOOK_URL } from '../schemas.js';

const ENV_PREFIX = 'AGENT_WORK_SANDBOX_';

export const WEBHOOKS_HELP = `Usage: agent-work-sandbox webhooks send <type> --to URL [--secret whsec_…] [--tamper KIND,…] [--task ID]
       agent-work-sandbox webhooks trigger <type> [--task ID] [--account ID] [--server URL]

send     signs one event (built from a fresh sandbox's state) and POSTs it to your handler, then prints each answer.
         With --tamper it also sends spoiled copies the handler must refuse; the exit status is 1 when the handler
         takes one (or, with --secret, refuses the genuine message).
trigger  asks a running sandbox (its control API) to send the event to the endpoints of the account.

Types: ${WEBHOOK_EVENT_TYPES.join(', ')}.

Options:
      --to URL            send: the handler's URL (http or https)
      --secret S          send: the whsec_… secret your handler verifies with     [AGENT_WORK_SANDBOX_WEBHOOK_SECRET]
      --tamper KIND,…     send: ${WEBHOOK_TAMPERS.join(', ')} (repeatable)
      --task ID           the task the event reports (default: the account's newest)
      --account ID        the account of the event
      --seed N            send: the seed of the sandbox the event is built from   (default 1)
      --server URL        trigger: the running sandbox                 (default http://127.0.0.1:4747)
      --control-token T   trigger: the control token, if the sandbox has one  [AGENT_WORK_SANDBOX_CONTROL_TOKEN]
`;

export interface WebhooksCliConfig {
  command: 'send' | 'trigger' | 'help';
  type: WebhookEventType;
  to: string | undefined;
  secret: string | undefined;
  tamper: WebhookTamper[];
  taskId: string | undefined;
  accountId: string | undefined;
  seed: number;
  server: string;
  controlToken: string | undefined;
}

function url(flag: string, raw: string): string {
  const checked = WEBHOOK_URL().safeParse(raw);
  if (!checked.success) throw new UsageError(`--${flag} must be an http or https URL; got "${raw}".`);
  return checked.data;
}

function tampers(values: string[]): WebhookTamper[] {
  return values
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean)
    .map((name) => {
      const found = WEBHOOK_TAMPERS.find((t) => t === name);
      if (!found) throw new UsageError(`--tamper: unknown kind "${name}". Known kinds: ${WEBHOOK_TAMPERS.join(', ')}.`);
      return found;
    });
}

/** `webhooks …` argv (after the word `webhooks`) and the environment → the configuration. Throws UsageError. */
export function parseWebhooksCli(argv: string[], env: Record<string, string | undefined> = {}): WebhooksCliConfig {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        to: { type: 'string' },
        secret: { type: 'string' },
        tamper: { type: 'string', multiple: true },
        task: { type: 'string' },
        account: { type: 'string' },
        seed: { type: 'string' },
        server: { type: 'string' },
        'control-token': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values: v, positionals } = parsed;
  const [verb, type, ...rest] = positionals;
  const help = v.help === true || verb === undefined;
  if (!help && verb !== 'send' && verb !== 'trigger') throw new UsageError(`Unknown command "webhooks ${verb}".`);
  if (!help && (type === undefined || rest.length > 0))
    throw new UsageError(`webhooks ${verb} takes one event type: ${WEBHOOK_EVENT_TYPES.join(', ')}.`);
  const eventType = WEBHOOK_EVENT_TYPES.find((t) => t === type);
  if (!help && !eventType)
    throw new UsageError(`Unknown event type "${String(type)}". Types: ${WEBHOOK_EVENT_TYPES.join(', ')}.`);
  if (verb === 'send' && !help && v.to === undefined) throw new UsageError('webhooks send needs --to URL.');
  const seed = v.seed === undefined ? 1 : Number(v.seed);
  if (!Number.isSafeInteger(seed)) throw new UsageError(`--seed must be an integer; got "${String(v.seed)}".`);
  return {
    command: help ? 'help' : (verb as 'send' | 'trigger'),
    type: eventType ?? 'task.completed',
    to: v.to === undefined ? undefined : url('to', v.to),
    secret: v.secret ?? env[`${ENV_PREFIX}WEBHOOK_SECRET`],
    tamper: tampers(v.tamper ?? []),
    taskId: v.task,
    accountId: v.account,
    seed,
    server: url('server', v.server ?? 'http://127.0.0.1:4747'),
    controlToken: v['control-token'] ?? env[`${ENV_PREFIX}CONTROL_TOKEN`],
  };
}
