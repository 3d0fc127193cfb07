/**
 * One error tree (docs/reference/errors.md): every error the package throws derives from SandboxError, is exported, and
 * carries a stable `code`; the control API answers each with the error shape.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as pkg from '../../src/index.js';
import {
  ApiError,
  ClockError,
  createSandbox,
  FixtureError,
  SandboxError,
  ScenarioError,
  SnapshotError,
  StartError,
  StateFileError,
  UsageError,
  WebhookTimeoutError,
} from '../../src/index.js';
import { parseCli } from '../../src/cli/args.js';

const SRC = join(import.meta.dirname, '..', '..', 'src');
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

describe('one error tree', () => {
  it('every error class of the package is exported by the main entry and derives from SandboxError', () => {
    const declared = files(SRC).flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/class (\w+) extends (\w+)/g)].map((m) => ({ name: m[1]!, base: m[2]! })),
    );
    const errors = declared.filter((c) => c.name.endsWith('Error'));
    expect(errors.map((c) => c.name).sort()).toEqual([
      'ApiError',
      'ClockError',
      'FixtureError',
      'SandboxError',
      'ScenarioError',
      'SnapshotError',
      'StartError',
      'StateFileError',
      'UsageError',
      'WebhookTimeoutError',
    ]);
    for (const { name, base } of errors) {
      if (name === 'SandboxError') expect(base).toBe('Error');
      const exported = (pkg as Record<string, unknown>)[name];
      expect(exported, `${name} is exported`).toBeTypeOf('function');
      expect((exported as { prototype: unknown }).prototype instanceof SandboxError || exported === SandboxError).toBe(
        true,
      );
    }
  });

  it('each class has its own stable code and name', () => {
    const cases: [SandboxError, string, string][] = [
      [new FixtureError('x'), 'FixtureError', 'invalid_fixtures'],
      [new ClockError('x'), 'ClockError', 'invalid_clock'],
      [new SnapshotError('x'), 'SnapshotError', 'invalid_snapshot'],
      [new ScenarioError('x'), 'ScenarioError', 'invalid_scenario'],
      [new StateFileError('x'), 'StateFileError', 'state_file'],
      [new UsageError('x'), 'UsageError', 'invalid_usage'],
      [new StartError('x'), 'StartError', 'start_failed'],
      [new WebhookTimeoutError(), 'WebhookTimeoutError', 'webhook_timeout'],
      [new ApiError('rate_limit_exceeded'), 'ApiError', 'rate_limit_exceeded'],
      [new SandboxError('x', 'not_found'), 'SandboxError', 'not_found'],
    ];
    for (const [error, name, code] of cases) {
      expect(error).toBeInstanceOf(SandboxError);
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(name);
      expect(error.code).toBe(code);
    }
    expect(new FixtureError('Invalid fixture set').message).toBe('Invalid fixture set');
    expect(new SandboxError('No account.').message).toBe('[agent-work-sandbox] No account.');
  });

  it('what the library throws can be caught by class and by code', () => {
    const sandbox = createSandbox({ clock: 'manual' });
    const caught = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return error;
      }
      throw new Error('did not throw');
    };
    // @ts-expect-error not a duration on purpose (the type refuses it): checked at run time too
    expect(caught(() => sandbox.clock.advance('soon'))).toMatchObject({ name: 'ClockError', code: 'invalid_clock' });
    // @ts-expect-error an unknown scenario on purpose: checked at run time
    expect(caught(() => sandbox.useScenario('nope'))).toBeInstanceOf(ScenarioError);
    // @ts-expect-error not a snapshot on purpose: checked at run time
    expect(caught(() => sandbox.restore({}))).toBeInstanceOf(SnapshotError);
    // @ts-expect-error not a fixture set on purpose: checked at run time
    expect(caught(() => createSandbox({ fixtures: { accounts: 1 } }))).toBeInstanceOf(FixtureError);
    expect(caught(() => sandbox.accounts.update('acc_nope', {}))).toMatchObject({
      name: 'SandboxError',
      code: 'not_found',
    });
    expect(caught(() => parseCli(['--clock', 'sideways'], {}))).toBeInstanceOf(UsageError);
    // @ts-expect-error not a duration on purpose: checked at run time
    const badDuration = caught(() => sandbox.clock.advance('soon'));
    for (const error of [badDuration, caught(() => parseCli(['--port', 'x'], {}))])
      expect(error).toBeInstanceOf(SandboxError);
  });
});
