/**
 * docs/architecture.md, enforced: which folder of src/ may import which (static, dynamic and type imports alike), and
 * the browser-safe entries reach no `node:` module and nothing of the server. Cycles: `npm run check:cycles` (madge).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');

/** The part of src/ a file belongs to: its folder, or its own name for a file at the top of src/. */
const part = (file: string): string => {
  const rel = relative(SRC, file);
  return rel.includes('/') ? rel.split('/')[0]! : rel.replace(/\.ts$/, '');
};

/** What each part may import (besides itself), as drawn in docs/architecture.md. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  errors: [],
  // Declarations of `?raw` imports (the inspector's files, bundled as text): no code.
  'raw.d': [],
  model: ['errors'],
  rules: ['errors', 'model'],
  scenarios: ['errors', 'model', 'rules'],
  core: ['errors', 'model', 'rules', 'scenarios'],
  schemas: ['errors', 'model', 'scenarios'],
  audit: ['errors', 'model', 'core'],
  webhooks: ['errors', 'model', 'rules', 'core', 'schemas'],
  http: ['errors', 'model', 'rules', 'scenarios', 'core'],
  'sandbox-types': ['errors', 'model', 'rules', 'scenarios', 'core', 'webhooks', 'audit'],
  'load-server': ['errors', 'sandbox-types'],
  sandbox: [
    'errors',
    'model',
    'rules',
    'scenarios',
    'core',
    'webhooks',
    'sandbox-types',
    'load-server',
    'schemas',
    'audit',
  ],
  // What both library entries export besides `createSandbox` (src/public.ts).
  public: ['errors', 'model', 'rules', 'scenarios', 'core', 'webhooks', 'audit', 'http', 'sandbox-types', 'sandbox'],
  index: ['http', 'sandbox-types', 'fetch', 'public'],
  // `agent-work-sandbox/fetch`: the sandbox without msw's handlers.
  fetch: ['http', 'sandbox-types', 'sandbox', 'public'],
  browser: ['index'],
  // The option type from where it is declared (through index.ts, Rollup's declaration build warns of a chunk cycle).
  testing: ['index', 'sandbox-types'],
  matchers: ['audit'],
  server: ['errors', 'model', 'rules', 'scenarios', 'core', 'schemas', 'audit', 'webhooks', 'http', 'sandbox-types'],
  cli: [
    'errors',
    'model',
    'rules',
    'scenarios',
    'core',
    'schemas',
    'audit',
    'webhooks',
    'http',
    'sandbox-types',
    'sandbox',
    'server',
  ],
};
// The `server` entry (src/server.ts) and the folder src/server/ are one part.

// Ambient declarations (src/raw.d.ts: text imports are strings) hold no code and import nothing: not a part.
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? files(join(dir, e.name))
      : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')
        ? [join(dir, e.name)]
        : [],
  );

/** Every module specifier a file names: `import … from`, `export … from`, `import(…)`, `import type`. */
const specifiersOf = (text: string): string[] =>
  [
    ...text.matchAll(
      /(?:^|[\s;])(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm,
    ),
  ].map((m) => (m[1] ?? m[2] ?? m[3])!);

const specifiers = (file: string): string[] => specifiersOf(readFileSync(file, 'utf8'));

const resolveLocal = (from: string, spec: string): string | undefined =>
  spec.startsWith('.') ? normalize(join(dirname(from), spec)).replace(/\.js$/, '.ts') : undefined;

const ALL = files(SRC);

describe('architecture (docs/architecture.md)', () => {
  it('every file of src/ belongs to a part the document names', () => {
    expect(ALL.map(part).filter((p) => !(p in MAY_IMPORT))).toEqual([]);
  });

  it('each part imports only the parts below it', () => {
    const wrong: string[] = [];
    for (const file of ALL) {
      for (const spec of specifiers(file)) {
        const target = resolveLocal(file, spec);
        if (!target || !target.startsWith(SRC)) continue;
        const [from, to] = [part(file), part(target)];
        if (from !== to && !MAY_IMPORT[from]!.includes(to))
          wrong.push(`${relative(SRC, file)} → ${spec} (${from} may not import ${to})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('nothing below server/ and cli/ imports a node: module', () => {
    const nodeOnly = new Set(['server', 'cli']);
    const wrong = ALL.filter((f) => !nodeOnly.has(part(f))).flatMap((f) =>
      specifiers(f)
        .filter((s) => s.startsWith('node:'))
        .map((s) => `${relative(SRC, f)} → ${s}`),
    );
    expect(wrong).toEqual([]);
  });

  it('the browser-safe entries reach no node: module and nothing of the server', () => {
    for (const entry of ['index.ts', 'browser.ts', 'fetch.ts']) {
      const seen = new Set<string>();
      const reached: string[] = [];
      const visit = (file: string) => {
        if (seen.has(file)) return;
        seen.add(file);
        for (const spec of specifiers(file)) {
          if (spec.startsWith('node:') || ['express', 'cors', 'msw/node'].includes(spec))
            reached.push(`${relative(SRC, file)} → ${spec}`);
          const target = resolveLocal(file, spec);
          if (target?.startsWith(SRC)) {
            if (part(target) === 'server' || part(target) === 'cli') reached.push(`${relative(SRC, file)} → ${spec}`);
            else visit(target);
          }
        }
      };
      visit(join(SRC, entry));
      expect(reached, entry).toEqual([]);
      expect(seen.size).toBeGreaterThan(30);
    }
  });

  it('comments cite only files in the repository', () => {
    const ROOT = join(SRC, '..');
    const missing: string[] = [];
    for (const file of ALL) {
      const text = readFileSync(file, 'utf8');
      if (/\bCONTRACT\b|STACK\.md|STYLE\.md/.test(text))
        missing.push(`${relative(SRC, file)} cites a document outside the repository`);
      for (const m of text.matchAll(
        /\b((?:docs|test|src|bench|examples|scripts|fixtures)\/[\w./-]+\.(?:md|ts|mjs|json))\b/g,
      )) {
        if (!existsSync(join(ROOT, m[1]!))) missing.push(`${relative(SRC, file)} → ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('the checker sees a forbidden import (a test that can fail)', () => {
    const probe = join(SRC, 'model', 'probe.ts');
    const text =
      "import type { SandboxCore } from '../sandbox.js';\nexport { x } from './x.js';\nconst m = await import('../server.js');\n";
    expect(specifiersOf(text)).toEqual(['../sandbox.js', './x.js', '../server.js']);
    expect(MAY_IMPORT.model).not.toContain('sandbox');
    expect(resolveLocal(probe, '../sandbox.js')).toBe(join(SRC, 'sandbox.ts'));
    expect(part(join(SRC, 'server.ts'))).toBe('server');
  });
});
