import { PLANS } from '../model/plans.js';
import type { SandboxCore as Sandbox } from '../sandbox.js';

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
    lines.push('', `  WARNING: listening beyond loopback. Anyone who can reach this address can use the API keys below.`);
  }
  if (info.controlToken) lines.push(`  Control token: ${info.controlToken}  (send it as X-Sandbox-Token)`);
  lines.push('', '  Accounts');
  for (const a of sandbox.accounts.list()) {
    lines.push(`    ${a.id.padEnd(16)} ${PLANS[a.plan].name.padEnd(11)} $${a.balance_usd.toFixed(2).padStart(8)}  ${a.name}`);
  }
  const hooks = sandbox.webhooks.list();
  if (hooks.length > 0) {
    lines.push('', '  Webhooks (Standard Webhooks signatures)');
    for (const h of hooks) lines.push(`    ${h.accountId.padEnd(16)} ${h.url}  ${h.secret}`);
  }
  lines.push('', '  Keys');
  const keys = sandbox.keys.list().filter((k) => !k.revoked);
  for (const k of keys) lines.push(`    ${k.label.padEnd(16)} ${k.key}  ${k.accountId}`);
  const first = keys.find((k) => k.scopes.includes('admin')) ?? keys[0];
  if (first) {
    lines.push('', '  Try', `    curl -i -H "Authorization: Bearer ${first.key}" ${base}/ext/agents`);
  }
  return `${lines.join('\n')}\n`;
}
