import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWebhooksCli } from '../../src/cli/webhooks-args.js';
import { UsageError } from '../../src/index.js';
import { CLI, ensureBuilt } from '../support/built.js';
import { startReceiver } from './receiver.js';
import { startCliWithWebhook } from './cli-process.js';

const SECRET = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;

/** A handler on 127.0.0.1: `verifies` decides whether it checks the message (standardwebhooks) or takes anything. */
async function handler(verifies: boolean) {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      try {
        if (verifies) new Webhook(SECRET).verify(Buffer.concat(chunks).toString('utf8'), headers);
        res.statusCode = 204;
        res.end();
      } catch {
        res.statusCode = 400;
        res.end('invalid signature');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/webhooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function cli(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, ...env }, timeout: 30_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const ALL = 'signature,timestamp-stale,timestamp-future,body';
let good: Awaited<ReturnType<typeof handler>>;
let bad: Awaited<ReturnType<typeof handler>>;

beforeAll(async () => {
  ensureBuilt();
  good = await handler(true);
  bad = await handler(false);
}, 60_000);
afterAll(async () => {
  await good.close();
  await bad.close();
});

describe('CLI: agent-work-sandbox webhooks send', () => {
  it('a handler that verifies: every check ok, exit 0; the secret is never printed', async () => {
    const run = await cli([
      'webhooks',
      'send',
      'task.completed',
      '--to',
      good.url,
      '--secret',
      SECRET,
      '--tamper',
      ALL,
    ]);
    expect(run.stdout).toMatch(/delivery\s+204 taken/);
    expect(run.stdout).toMatch(/tampered signature\s+400 refused .*"invalid signature"/);
    expect(run.stdout).toContain('ok   rejects-timestamp-stale');
    expect(run.stdout).not.toContain('FAIL');
    expect(`${run.stdout}${run.stderr}`).not.toContain(SECRET.slice(6, 20));
    expect(run.code).toBe(0);
  });

  it('a handler that takes a tampered event: FAIL with the audit rule and its fix, exit 1', async () => {
    const run = await cli(['webhooks', 'send', 'task.completed', '--to', bad.url, '--tamper', 'signature'], {
      AGENT_WORK_SANDBOX_WEBHOOK_SECRET: SECRET,
    });
    expect(run.stdout).toMatch(/tampered signature\s+204 taken .*expected refused/);
    expect(run.stdout).toMatch(/FAIL rejects-signature: .*handler-accepts-bad-signature/);
    expect(run.stdout).toMatch(/fix: Verify every message/);
    expect(run.code).toBe(1);
  });

  it('without --secret only the tampered messages are judged: a verifying handler still exits 0', async () => {
    const run = await cli(['webhooks', 'send', 'credits.low', '--to', good.url, '--tamper', 'body']);
    expect(run.stdout).toContain('no --secret');
    expect(run.code).toBe(0);
  });

  it('a bad command line exits 2 with the reason', async () => {
    const run = await cli(['webhooks', 'send', 'task.completed', '--to', good.url, '--tamper', 'sig']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--tamper: unknown kind "sig"');
  });

  it('parses its options, and refuses a missing --to, an unknown type or verb', () => {
    expect(
      parseWebhooksCli(['send', 'task.failed', '--to', 'http://127.0.0.1:1/h', '--tamper', 'body,signature']),
    ).toMatchObject({
      command: 'send',
      type: 'task.failed',
      tamper: ['body', 'signature'],
    });
    expect(() => parseWebhooksCli(['send', 'task.failed'])).toThrow(/needs --to URL/);
    expect(() => parseWebhooksCli(['send', 'task.exploded', '--to', 'http://x.test'])).toThrow(UsageError);
    expect(() => parseWebhooksCli(['resend', 'task.failed'])).toThrow(/Unknown command "webhooks resend"/);
  });
});

describe('CLI: agent-work-sandbox webhooks trigger', () => {
  let hook: Awaited<ReturnType<typeof startReceiver>>;
  let server: string;
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    hook = await startReceiver([204]);
    ({ origin: server, stop } = await startCliWithWebhook(hook.url, ['--clock', 'manual']));
  }, 60_000);
  afterAll(async () => {
    await stop?.();
    await hook.close();
  });

  it('sends the event through the running sandbox to its endpoints, and prints each delivery', async () => {
    const run = await cli(['webhooks', 'trigger', 'credits.low', '--account', 'acc_demo', '--server', server]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(`^credits\\.low evt_\\w+ → ${hook.url.replace(/\./g, '\\.')}: succeeded \\(204\\)`),
    );
    expect(JSON.parse(hook.received.at(-1)!.body)).toMatchObject({ type: 'credits.low' });
  });

  it('an unknown task is the sandbox message and exit 1; no sandbox is said plainly', async () => {
    const run = await cli(['webhooks', 'trigger', 'task.completed', '--task', 'task_nope', '--server', server]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("No task 'task_nope'");
    const none = await cli(['webhooks', 'trigger', 'task.completed', '--server', 'http://127.0.0.1:1']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no sandbox answers at http://127.0.0.1:1');
  });
});
