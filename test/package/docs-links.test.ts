/**
 * Every relative link in README.md and docs/**\/*.md leads to a file or a folder of the repository, so that moving a
 * page cannot leave a reader at a dead end. Links to other sites and to anchors of the same page are not checked.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/built.js';

// Guides that are written on other branches and linked from the index before they land. Remove a name once its page
// exists: the test then checks links to it like any other.
const PENDING: string[] = [];

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdownFiles(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
  );
}

/** The relative link targets of a Markdown text (inline links and images), outside code blocks and code spans. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'));
}

const FILES = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];

describe('docs links', () => {
  it('finds the pages and their links (the check has something to check)', () => {
    expect(FILES.length).toBeGreaterThan(15);
    expect(relativeLinks(readFileSync(join(ROOT, 'README.md'), 'utf8')).length).toBeGreaterThan(10);
  });

  it('a link to a missing page is caught', () => {
    expect(relativeLinks('see [x](guides/nope.md#a), [y](https://example.com), [z](#here), `[c](no.md)`')).toEqual([
      'guides/nope.md#a',
    ]);
  });

  it('every file the Assumptions tables name as "where in the code" exists', () => {
    const tables = ['README.md', 'docs/reference/assumptions.md'].map((f) => readFileSync(join(ROOT, f), 'utf8'));
    const named = tables.flatMap((t) =>
      t
        .split('\n')
        .filter((line) => line.startsWith('|'))
        .flatMap((line) =>
          [...(line.split('|').at(-2) ?? '').matchAll(/`((?:src|test)\/[^`\s]+)`/g)].map((m) => m[1]!),
        ),
    );
    expect(named.length).toBeGreaterThan(30);
    expect(named.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  it.each(FILES.map((f) => [relative(ROOT, f), f]))('every relative link of %s resolves', (_name, file) => {
    const broken = relativeLinks(readFileSync(file, 'utf8')).filter((target) => {
      const path = relative(ROOT, join(dirname(file), decodeURIComponent(target.replace(/[#?].*$/, ''))));
      return !existsSync(join(ROOT, path)) && !PENDING.includes(path);
    });
    expect(broken).toEqual([]);
  });
});
