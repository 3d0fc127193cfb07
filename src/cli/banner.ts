import { PLANS } from '../model/plans.js';
import type { SandboxCore as Sandbox } from '../sandbox-types.js';

export interface BannerInfo {
  version: string;
  url: string;
  seed: number;
  clock: string;
  scenarios: string[];
  controlToken: string | undefined;
  exposed: boolean;
  stateFile: string | undefined;
}

/** What a client sees with a magic key, in a few words. */
const OUTCOMES: Record<string, string> = {
  'out-of-credits': '402 insufficient_credits on POST /ext/tasks',
  'rate-limited': '429 rate_limit_exceeded, Retry-After',
  'revoked-key': '401 invalid_api_key',
  'read-only-key': '403 insufficient_scope on POST /ext/tasks',
  'free-plan': 'Free plan limits (10 RPM, 10K TPM)',
  'slow-tasks': 'tasks take 10 times longer',
  'failing-tasks': 'tasks end failed (task_failed)',
  latency: 'every answer 500 ms late',
  'server-error': '500 internal_error',
  unavailable: '503 service_unavailable, Retry-After',
  'network-error': 'the connection is reset',
  'empty-catalog': 'no agents',
};

function magicOutcome(names: string[]): string {
  return names.map((n) => OUTCOMES[n] ?? n).join('; ');
}

/** The start-up banner: base URL, accounts, ready keys and a first request to try. */
export function banner(sandbox: Sandbox, info: BannerInfo): string {
  const base = `${info.url}${sandbox.basePath}`;
  const lines = [
    `agent-work-sandbox ${info.version}: a sandbox of the Agent Work Service API`,
    '',
    `  Base URL     ${base}`,
    `  Control API  ${info.url}/__sandbox`,
    `  Inspector    ${info.url}/__sandbox/${info.controlToken ? `?token=${info.controlToken}` : ''}`,
    `  OpenAPI      ${info.url}/__sandbox/openapi.json`,
    `  Seed ${info.seed} · clock ${info.clock}${info.scenarios.length ? ` · scenarios ${info.scenarios.join(', ')}` : ''}${info.stateFile ? ` · state ${info.stateFile}` : ''}`,
  ];
  if (info.exposed) {
    lines.push(
      '',
      `  WARNING: listening beyond loopback. Anyone who can reach this address can use the API keys below.`,
    );
  }
  if (info.controlToken) lines.push(`  Control token: ${info.controlToken}  (send it as X-Sandbox-Token)`);
  lines.push('', '  Accounts');
  for (const a of sandbox.accounts.list()) {
    lines.push(
      `    ${a.id.padEnd(16)} ${PLANS[a.plan].name.padEnd(11)} $${a.balance_usd.toFixed(2).padStart(8)}  ${a.name}`,
    );
  }
  const hooks = sandbox.webhooks.list();
  if (hooks.length > 0) {
    lines.push('', '  Webhooks (Standard Webhooks signatures)');
    for (const h of hooks) lines.push(`    ${h.accountId.padEnd(16)} ${h.url}  ${h.secret}`);
  }
  lines.push('', '  Keys');
  const live = sandbox.keys.list().filter((k) => !k.revoked);
  const keys = live.filter((k) => k.scenarios.length === 0);
  const magic = live.filter((k) => k.scenarios.length > 0);
  for (const k of keys) lines.push(`    ${k.label.padEnd(16)} ${k.key}  ${k.accountId}`);
  if (magic.length > 0) {
    lines.push('', '  Magic keys (every request with one runs under its scenario; see docs/guides/scenarios.md)');
    const width = Math.max(...magic.map((k) => k.key.length));
    for (const k of magic)
      lines.push(`    ${k.key.padEnd(width)}  ${k.scenarios.join(' + ').padEnd(15)} ${magicOutcome(k.scenarios)}`);
  }
  const first = keys.find((k) => k.scopes.includes('admin')) ?? keys[0];
  if (first) {
    lines.push('', '  Try', `    curl -i -H "Authorization: Bearer ${first.key}" ${base}/ext/agents`);
  }
  return `${lines.join('\n')}\n`;
}
