/**
 * Small rooms (issue 17), for the files eslint's TypeScript rules do not read: the inspector page's scripts, styles
 * and HTML. No file of src/ is over 300 lines, and no function of the page's scripts over 80.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
const source = files(join(ROOT, 'src')).filter((f) => /\.(ts|js|css|html)$/.test(f));
const lines = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

describe('small rooms', () => {
  it('no file of src/ is over 300 lines (scripts, styles and HTML included)', () => {
    const long = source
      .map((f) => ({ file: relative(ROOT, f), lines: lines(readFileSync(f, 'utf8')) }))
      .filter((f) => f.lines > 300);
    expect(long).toEqual([]);
  });

  it("no function of the inspector page's scripts is over 80 lines", () => {
    const linter = new Linter({ configType: 'flat' });
    const config = {
      languageOptions: { sourceType: 'module' as const, ecmaVersion: 'latest' as const },
      rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false }] },
    } satisfies Linter.Config;
    const scripts = source.filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(1);
    const found = scripts.flatMap((f) =>
      linter.verify(readFileSync(f, 'utf8'), config).map((m) => `${relative(ROOT, f)}:${String(m.line)} ${m.message}`),
    );
    expect(found).toEqual([]);
  });
});
