/** The CLI's usage errors name the flag or variable, say what it accepts, and suggest the nearest name. */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCli } from '../../src/cli/args.js';
import { main } from '../../src/cli/main.js';
import { CLI, ensureBuilt } from '../support/built.js';
import { tempDir } from '../support/temp.js';

const error = (argv: string[], env: Record<string, string> = {}): string => {
  try {
    parseCli(argv, env);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`parseCli(${argv.join(' ')}) did not throw`);
};

describe('CLI usage errors', () => {
  it('an unknown flag gets "did you mean"', () => {
    expect(error(['--prot', '5000'])).toBe('Unknown option --prot. Did you mean --port?');
    expect(error(['--fixture=marketplace'])).toBe('Unknown option --fixture. Did you mean --fixtures?');
  });

  it('an unknown flag far from any name gets no suggestion', () => {
    expect(error(['--zzzzzzzzzz'])).toBe('Unknown option --zzzzzzzzzz.');
  });

  it('a negative value is read as the value, and checked against its range', () => {
    expect(parseCli(['--seed', '-1']).seed).toBe(-1);
    expect(error(['--task-retention', '-1'])).toBe(
      '--task-retention must be an integer from 0 to 1000000000; got "-1".',
    );
  });

  it('a bad environment value names the variable, not the flag', () => {
    expect(error([], { PORT: 'abc' })).toBe('PORT must be an integer from 0 to 65535; got "abc".');
    expect(error([], { AGENT_WORK_SANDBOX_SEED: 'x' })).toMatch(/^AGENT_WORK_SANDBOX_SEED must be an integer/);
    expect(error(['--port', 'abc'], { PORT: '1' })).toMatch(/^--port must be an integer/);
  });

  it('a flag without its value, and a value given to a switch, say so', () => {
    expect(error(['--port'])).toBe('--port needs a value.');
    expect(error(['--quiet=yes'])).toBe('--quiet takes no value.');
  });

  it('`fixtures` alone lists its subcommand; a near miss is suggested', () => {
    expect(error(['fixtures'])).toMatch(/^fixtures needs a subcommand: fixtures export/);
    expect(error(['fixtures', 'exprt'])).toMatch(/Did you mean fixtures export\?/);
    expect(error(['fixture', 'export'])).toMatch(/Did you mean fixtures export\?/);
  });

  it('careful input parses without error', () => {
    const config = parseCli(['--port', '0', '--seed', '7', 'fixtures', 'export', '--fixtures', 'marketplace']);
    expect(config).toMatchObject({ command: 'fixtures-export', port: 0, seed: 7, fixtures: 'marketplace' });
  });
});

describe('fixture sets on the command line', () => {
  const io = () => {
    const out = { stdout: '', stderr: '' };
    return {
      out,
      io: { stdout: (t: string) => void (out.stdout += t), stderr: (t: string) => void (out.stderr += t), env: {} },
    };
  };

  it('an unknown fixture set lists the bundled ones', async () => {
    const error = (await main(['--port', '0', '--fixtures', 'nope'], io().io).catch((e: Error) => e)) as Error;
    expect(error.name).toBe('UsageError');
    expect(error.message).toBe('--fixtures: "nope" is neither a bundled set (default, marketplace, empty) nor a file.');
    const near = (await main(['--port', '0', '--fixtures', 'marketplce'], io().io).catch((e: Error) => e)) as Error;
    expect(near.message).toMatch(/Did you mean marketplace\?$/);
  });

  it('`fixtures export --fixtures X` exports X, and the default set by default', async () => {
    const marketplace = io();
    await main(['fixtures', 'export', '--fixtures', 'marketplace'], marketplace.io);
    expect(JSON.parse(marketplace.out.stdout)).toEqual(
      JSON.parse(readFileSync(new URL('../../fixtures/marketplace.json', import.meta.url), 'utf8')),
    );
    const byDefault = io();
    await main(['fixtures', 'export', '--seed', '1'], byDefault.io);
    expect(JSON.parse(byDefault.out.stdout)).toEqual(
      JSON.parse(readFileSync(new URL('../../fixtures/default.json', import.meta.url), 'utf8')),
    );
  });
});

describe('exit codes of the executable: 2 for usage, 1 at run time', () => {
  beforeAll(ensureBuilt, 120_000);
  const exit = (argv: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, ...argv], { env: { ...process.env, PORT: '', ...env } });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('exit', (code) => resolve({ code, stderr }));
    });

  it.each([
    [['--prot', '5000'], {}],
    [['fixtures'], {}],
    [['--fixtures', 'nope'], {}],
    [[], { PORT: 'abc' }],
  ] as [string[], Record<string, string>][])('%s exits 2 with a --help hint', async (argv, env) => {
    const { code, stderr } = await exit(argv, env);
    expect(code).toBe(2);
    expect(stderr).toMatch(/Run agent-work-sandbox --help for the options\./);
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  it('a fixture file that is not JSON and one that is not a fixture set both exit 2', async () => {
    const dir = tempDir('aws-cli-errors-');
    const notJson = join(dir, 'not.json');
    const notASet = join(dir, 'set.json');
    writeFileSync(notJson, '{ "accounts": [');
    writeFileSync(notASet, '{ "accounts": [] }');
    expect((await exit(['--port', '0', '--fixtures', notJson])).code).toBe(2);
    expect((await exit(['--port', '0', '--fixtures', notASet])).code).toBe(2);
  });
});
