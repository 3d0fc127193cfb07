/** The built CLI as a child process with `--webhook URL`, for the webhook tests that drive it over HTTP. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { CLI, ensureBuilt } from '../support/built.js';

/** Starts `node dist/cli.js --port 0 --quiet --webhook URL …args`; resolves with its origin and a stop function. */
export async function startCliWithWebhook(hookUrl: string, args: string[] = []) {
  ensureBuilt();
  const child = spawn(process.execPath, [CLI, '--port', '0', '--quiet', '--webhook', hookUrl, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  const origin = line
    .toString()
    .trim()
    .replace(/\/api\/v1$/, '');
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  };
  return { origin, stop };
}
