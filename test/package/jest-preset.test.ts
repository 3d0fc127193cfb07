/** The Jest preset says in one line what to do when it cannot work here, and nothing when it can. */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const { presetProblem } = require('../../jest-preset-check.cjs') as {
  presetProblem: (how?: {
    nodeOptions?: string;
    execArgv?: string[];
    nodeMajor?: number;
    mswMajor?: number;
    has?: (id: string) => boolean;
  }) => string | null;
};
const all = () => true;

describe('agent-work-sandbox/jest-preset', () => {
  it('finds nothing wrong here (msw 2, babel present)', () => {
    expect(presetProblem()).toBeNull();
    expect(presetProblem({ mswMajor: 2, nodeMajor: 20, has: all })).toBeNull();
  });

  it('names the optional peers it needs, with the install command', () => {
    expect(presetProblem({ mswMajor: 2, has: (id) => id === '@babel/core' })).toBe(
      'it needs @babel/plugin-transform-modules-commonjs (optional peer dependencies): npm install --save-dev @babel/plugin-transform-modules-commonjs',
    );
  });

  it('with msw 3, works on Node 24 with --experimental-vm-modules, and says what to do anywhere else', () => {
    const vm = { nodeOptions: '--experimental-vm-modules', execArgv: [], mswMajor: 3, has: all };
    expect(presetProblem({ ...vm, nodeMajor: 24 })).toBeNull();
    expect(presetProblem({ ...vm, nodeMajor: 22 })).toMatch(
      /^msw 3 is ESM-only and runs under Jest only on Node 24 or later with NODE_OPTIONS=--experimental-vm-modules \(here: Node 22\)/,
    );
    const line = presetProblem({ ...vm, nodeOptions: '', nodeMajor: 24 });
    expect(line).toMatch(/\(here: Node 24, without that option\); or install msw 2/);
    expect(line).not.toContain('\n');
  });

  it('loads where nothing is wrong, and maps node_modules to its transformer', () => {
    const preset = require('../../jest-preset.cjs') as { transform: Record<string, string> };
    expect(Object.values(preset.transform)).toContain(require.resolve('../../jest-transform.cjs'));
  });
});
