import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main, type CliRun } from '../src/cli/main.js';
import {
  createSandbox,
  FIXTURE_SET_NAMES,
  FixtureError,
  FixtureSetSchema,
  generateDefaultFixtures,
  parseFixtureSet,
  PLAN_IDS,
} from '../src/index.js';
import { tempDir } from './support/temp.js';

const FIXTURES_DIR = join(import.meta.dirname, '..', 'fixtures');
const files = readdirSync(FIXTURES_DIR).filter((f) => f.endsWith('.json') && !f.endsWith('.schema.json'));
const io = (out: string[] = []) => ({
  stdout: (t: string) => void out.push(t),
  stderr: (t: string) => void out.push(t),
  env: {},
});

describe('every file in fixtures/', () => {
  it.each(files)('%s is a valid fixture set that a sandbox starts from', (file) => {
    const set = parseFixtureSet(JSON.parse(readFileSync(join(FIXTURES_DIR, file), 'utf8')), file);
    const sandbox = createSandbox({ fixtures: set, clock: 'manual' });
    expect(sandbox.accounts.list().map((a) => a.id)).toEqual(set.accounts.map((a) => a.id));
    expect(sandbox.keys.list()).toHaveLength(set.keys.length);
  });

  it('fixture-set.schema.json (for editors) is the JSON Schema of FixtureSetSchema, and every set validates against it', () => {
    const committed = JSON.parse(readFileSync(join(FIXTURES_DIR, 'fixture-set.schema.json'), 'utf8'));
    expect(committed).toEqual({
      ...z.toJSONSchema(FixtureSetSchema, { target: 'draft-2020-12', io: 'input' }),
      title: 'agent-work-sandbox fixture set',
    });
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(committed);
    for (const file of files)
      expect(validate(JSON.parse(readFileSync(join(FIXTURES_DIR, file), 'utf8'))), file).toBe(true);
  });

  it('default.json is the default set exported for seed 1 (fixtures export), so it cannot drift', () => {
    expect(JSON.parse(readFileSync(join(FIXTURES_DIR, 'default.json'), 'utf8'))).toEqual(generateDefaultFixtures(1));
  });
});

describe('bundled sets by name', () => {
  it('names the sets default, marketplace and empty', () => {
    expect([...FIXTURE_SET_NAMES].sort()).toEqual(['default', 'empty', 'marketplace']);
  });

  it('marketplace: a catalog of 30+ agents across capabilities and all three models, accounts on every plan', () => {
    const sandbox = createSandbox({ fixtures: 'marketplace', clock: 'manual' });
    const set = JSON.parse(readFileSync(join(FIXTURES_DIR, 'marketplace.json'), 'utf8'));
    expect(set.agents.length).toBeGreaterThanOrEqual(30);
    expect(new Set(set.agents.map((a: { model: string }) => a.model))).toEqual(
      new Set(['model-a', 'model-b', 'model-c']),
    );
    expect(new Set(set.agents.flatMap((a: { capabilities: string[] }) => a.capabilities)).size).toBeGreaterThanOrEqual(
      15,
    );
    expect(new Set(sandbox.accounts.list().map((a) => a.plan))).toEqual(new Set(PLAN_IDS));
    const res = sandbox.handle({
      method: 'GET',
      path: '/ext/agents',
      query: 'limit=100',
      header: (n) => (n === 'authorization' ? 'Bearer ak_demo_acme_admin' : undefined),
      body: '',
      clientId: 't',
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).data).toHaveLength(set.agents.length);
  });

  it('marketplace has the magic keys of the default set: ak_magic_rate_limited answers 429', () => {
    const sandbox = createSandbox({ fixtures: 'marketplace', clock: 'manual' });
    const res = sandbox.handle({
      method: 'GET',
      path: '/ext/agents',
      query: '',
      header: (n) => (n === 'authorization' ? 'Bearer ak_magic_rate_limited' : undefined),
      body: '',
      clientId: 't',
    });
    expect(res.status).toBe(429);
    expect(JSON.parse(res.body).error.code).toBe('rate_limit_exceeded');
  });

  it('empty: one account, no agents', () => {
    const sandbox = createSandbox({ fixtures: 'empty', clock: 'manual' });
    expect(sandbox.accounts.list()).toHaveLength(1);
    const res = sandbox.handle({
      method: 'GET',
      path: '/ext/agents',
      query: '',
      header: (n) => (n === 'authorization' ? 'Bearer ak_demo_empty_admin' : undefined),
      body: '',
      clientId: 't',
    });
    expect(JSON.parse(res.body)).toEqual({ data: [], has_more: false, next_cursor: null });
  });

  it("'default' is the set generated from the seed", () => {
    expect(createSandbox({ fixtures: 'default', seed: 7 }).keys.list()).toEqual(createSandbox({ seed: 7 }).keys.list());
  });

  it('an unknown name is an error that lists the bundled sets', () => {
    // @ts-expect-error a misspelt name on purpose: checked at run time
    expect(() => createSandbox({ fixtures: 'marketpalce' })).toThrow(FixtureError);
    // @ts-expect-error a misspelt name on purpose: checked at run time
    expect(() => createSandbox({ fixtures: 'marketpalce' })).toThrow(
      /Unknown fixture set "marketpalce".*default, marketplace, empty/,
    );
  });

  it('two sandboxes on one bundled set do not share state', () => {
    const a = createSandbox({ fixtures: 'marketplace' });
    const b = createSandbox({ fixtures: 'marketplace' });
    a.accounts.update('acc_acme', { balanceUsd: 1 });
    expect(b.accounts.get('acc_acme')!.balance_usd).toBe(50);
  });
});

describe('--fixtures NAME|FILE', () => {
  let run: CliRun | undefined;
  afterEach(async () => {
    await run?.stop();
    run = undefined;
  });
  const dir = tempDir('aws-fixtures-');
  const write = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };
  const good = () => JSON.parse(readFileSync(join(FIXTURES_DIR, 'empty.json'), 'utf8'));

  it('a name resolves to the bundled set', async () => {
    run = await main(['--port', '0', '--fixtures', 'marketplace', '-q'], io());
    expect(run!.sandbox.accounts.get('acc_globex')!.plan).toBe('enterprise');
  });

  it('a file path loads that file', async () => {
    const set = good();
    set.accounts[0].balance_usd = 12.5;
    run = await main(['--port', '0', '--fixtures', write('mine.json', set), '-q'], io());
    expect(run!.sandbox.accounts.get('acc_empty')!.balance_usd).toBe(12.5);
  });

  const broken: [string, (set: any) => unknown, RegExp][] = [
    ['not JSON', () => '{ "accounts": [', /is not valid JSON/],
    ['an unknown plan', (s) => ((s.accounts[0].plan = 'platinum'), s), /at accounts\[0\]\.plan: .*"free"/],
    [
      'a key on no account',
      (s) => ((s.keys[0].account_id = 'acc_nobody'), s),
      /at keys\[0\]\.account_id: no account "acc_nobody"/,
    ],
    ['an unknown scope', (s) => ((s.keys[0].scopes = ['write:everything']), s), /at keys\[0\]\.scopes\[0\]/],
    ['a misspelled field', (s) => ((s.acounts = s.accounts), s), /at \(top level\): Unrecognized key: "acounts"/],
    ['a negative balance', (s) => ((s.accounts[0].balance_usd = -1), s), /at accounts\[0\]\.balance_usd: /],
    [
      'an agent with an unknown model',
      (s) => (s.agents.push({ ...generateDefaultFixtures(1).agents[0], model: 'gpt-9' }), s),
      /at agents\[0\]\.model: /,
    ],
    ['no accounts', (s) => ((s.accounts = []), (s.keys = []), s), /at accounts: /],
  ];
  it.each(broken)(
    'a file with %s is refused with a message naming the file, the path in it and the problem',
    async (label, breakIt, message) => {
      const path = write(`${label.replace(/\W+/g, '-')}.json`, breakIt(good()));
      const error = await main(['--port', '0', '--fixtures', path], io()).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error).toBeInstanceOf(Error);
      expect(error!.message).toContain(path);
      expect(error!.message).toMatch(message);
    },
  );

  it('a file that does not exist is named in the error', async () => {
    await expect(main(['--port', '0', '--fixtures', join(dir, 'nope.json')], io())).rejects.toThrow(
      /Cannot read the fixture file .*nope\.json/,
    );
  });
});
