/** `agent-work-sandbox webhooks send|trigger`: a handler in any language tested from the command line. */
import { AUDIT_RULE_BY_NAME } from '../audit/catalog.js';
import { createCheckedSandboxCore as createSandbox } from '../sandbox.js';
import type { DeliverReport } from '../webhooks/kit-deliver.js';
import type { DeliverAttempt } from '../webhooks/kit-verdicts.js';
import type { WebhookDelivery } from '../webhooks/types.js';

/** A delivery as the control API shows it (its field names in either casing). */
type Shown = Pick<WebhookDelivery, 'url' | 'status' | 'attempts'> & {
  eventType?: string;
  event_type?: string;
  eventId?: string;
  event_id?: string;
};
import { parseWebhooksCli, WEBHOOKS_HELP, type WebhooksCliConfig } from './webhooks-args.js';

interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
}

/** Runs the command; resolves with the exit status (0: the handler did right, 1: it did not or the call failed). */
export async function webhooksCommand(argv: string[], io: Io): Promise<number> {
  const config = parseWebhooksCli(argv, io.env);
  if (config.command === 'help') {
    io.stdout(WEBHOOKS_HELP);
    return 0;
  }
  return config.command === 'send' ? send(config, io) : trigger(config, io);
}

/** A secret nobody knows: without --secret the genuine message cannot verify, and only the tampered ones are judged. */
function unknownSecret(): string {
  return `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64')}`;
}

const answer = (text: string | null) =>
  text ? ` ${JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text)}` : '';

function attemptLine(a: DeliverAttempt): string {
  const what = a.tamper === null ? a.kind : `tampered ${a.tamper}`;
  const got =
    a.status === null ? `no answer (${a.error ?? ''})` : `${String(a.status)} ${a.accepted ? 'taken' : 'refused'}`;
  const wrong = a.accepted !== (a.expected === 'accept') && a.status !== null;
  return `  ${what.padEnd(26)} ${got.padEnd(14)} ${`${String(Math.round(a.latencyMs))} ms`.padStart(7)}${answer(a.body)}${wrong ? `   expected ${a.expected === 'accept' ? 'taken' : 'refused'}` : ''}\n`;
}

function printReport(report: DeliverReport, judged: DeliverReport['verdicts'], io: Io): void {
  io.stdout(`POST ${report.target}  ${report.eventId}\n`);
  for (const a of report.attempts) io.stdout(attemptLine(a));
  for (const v of judged) {
    io.stdout(`${v.passed ? 'ok  ' : 'FAIL'} ${v.check}: ${v.message}\n`);
    const fix = v.rule === null ? undefined : AUDIT_RULE_BY_NAME.get(v.rule)?.fix;
    if (!v.passed && fix) io.stdout(`     fix: ${fix}\n`);
  }
}

async function send(config: WebhooksCliConfig, io: Io): Promise<number> {
  const sandbox = createSandbox({ seed: config.seed, clock: 'manual' });
  const event = sandbox.webhooks.event(config.type, { taskId: config.taskId, accountId: config.accountId });
  const report = await sandbox.webhooks.deliver(config.to ?? '', event, {
    secret: config.secret ?? unknownSecret(),
    tamper: config.tamper,
  });
  const judged = report.verdicts.filter((v) => config.secret !== undefined || v.rule !== null);
  printReport(report, judged, io);
  if (config.secret === undefined)
    io.stdout('(no --secret: the handler cannot verify the genuine message, so its answer is not judged)\n');
  return judged.every((v) => v.passed) ? 0 : 1;
}

async function trigger(config: WebhooksCliConfig, io: Io): Promise<number> {
  const at = `${config.server.replace(/\/+$/, '')}/__sandbox/webhooks/trigger`;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (config.controlToken !== undefined) headers['x-sandbox-token'] = config.controlToken;
  let res: Response;
  try {
    res = await fetch(at, {
      method: 'POST',
      headers,
      body: JSON.stringify({ type: config.type, task_id: config.taskId, account_id: config.accountId }),
    });
  } catch {
    io.stderr(
      `agent-work-sandbox: no sandbox answers at ${config.server}: start one (npx agent-work-sandbox) or pass --server.\n`,
    );
    return 1;
  }
  const json = (await res.json().catch(() => undefined)) as
    { data?: Shown[]; error?: { message?: string } } | undefined;
  if (!res.ok || !json?.data) {
    io.stderr(`agent-work-sandbox: ${json?.error?.message ?? `the sandbox answered ${String(res.status)}`}\n`);
    return 1;
  }
  for (const d of json.data) {
    const statuses = d.attempts.map((a) => (a.status === null ? 'no answer' : String(a.status))).join(', ');
    const [type, id] = [d.event_type ?? d.eventType, d.event_id ?? d.eventId];
    io.stdout(`${String(type)} ${String(id)} → ${d.url ?? 'in-process'}: ${d.status} (${statuses})\n`);
  }
  return 0;
}
