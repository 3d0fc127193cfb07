/** The CLI's exit summary of the integration audit. */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

async function session(requests: (base: string, key: string) => Promise<unknown>) {
  let stderr = '';
  const run = (await main(['--port', '0', '--quiet'], {
    stdout: () => {},
    stderr: (t) => void (stderr += t),
    env: {},
  }))!;
  const base = `${run.server.url}${run.sandbox.basePath}`;
  const key = run.sandbox.keys.list('acc_demo').find((k) => k.label === 'admin')!.key;
  try {
    await requests(base, key);
  } finally {
    await run.stop();
  }
  return { stderr, key };
}

describe('CLI exit summary', () => {
  it('lists each finding with its fix on stderr when the CLI stops, without the key', async () => {
    const { stderr, key } = await session(async (base, key) => {
      await fetch(`${base}/ext/agents?api_key=${key}`);
      await fetch(`${base}/ext/usage`, { headers: { Authorization: 'Bearer ak_wrong_key_00000000000000000' } });
      await fetch(`${base}/ext/usage`, { headers: { Authorization: 'Bearer ak_wrong_key_00000000000000000' } });
    });
    expect(stderr).toBe(
      'agent-work-sandbox: integration audit: 2 findings (1 error); GET /__sandbox/audit for details, docs/guides/explain-and-audit.md for the rules.\n' +
        '  - error key-in-url ×1 (acc_demo) at req_000001: Send the key only in the Authorization header ("Authorization: Bearer <key>"), never in the URL; rotate any key that was sent this way.\n' +
        '  - warning repeated-invalid-key ×1 at req_000003: Treat 401 as final: stop, report the key as invalid or revoked and ask for a new one; retrying does not help.\n',
    );
    expect(stderr).not.toContain(key);
  });

  it('prints nothing when the audit is clean', async () => {
    const { stderr } = await session(async (base, key) => {
      await fetch(`${base}/ext/agents`, { headers: { Authorization: `Bearer ${key}` } });
    });
    expect(stderr).toBe('');
  });
});
