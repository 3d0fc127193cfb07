/**
 * The machine-readable start (`--log json`): the first line on stdout is one JSON object with the URLs, the port and
 * the ready keys per account, so that a process fixture in any language reads one line instead of the banner.
 */
import type { SandboxCore as Sandbox } from '../sandbox-types.js';

export interface ReadyInfo {
  version: string;
  /** `http://127.0.0.1:PORT`, no path. */
  url: string;
  port: number;
  controlToken: string | undefined;
}

/** `{"event":"ready","base_url":…,"port":…,"accounts":[{"id":…,"keys":[…]}]}` and a newline. */
export function readyLine(sandbox: Sandbox, info: ReadyInfo): string {
  const keys = sandbox.keys.list().filter((k) => !k.revoked);
  const line = {
    event: 'ready',
    version: info.version,
    base_url: `${info.url}${sandbox.basePath}`,
    port: info.port,
    control_url: `${info.url}/__sandbox`,
    openapi_url: `${info.url}/__sandbox/openapi.json`,
    control_openapi_url: `${info.url}/__sandbox/control/openapi.json`,
    control_token: info.controlToken ?? null,
    clock: sandbox.clock.mode,
    accounts: sandbox.accounts.list().map((a) => ({
      id: a.id,
      name: a.name,
      plan: a.plan,
      balance_usd: a.balance_usd,
      keys: keys
        .filter((k) => k.accountId === a.id)
        .map((k) => ({ id: k.id, label: k.label, key: k.key, scopes: k.scopes, scenarios: k.scenarios })),
    })),
  };
  return `${JSON.stringify(line)}\n`;
}
