/** Strings up to this length are shared between the records that repeat them. */
const MAX_LENGTH = 256;
/** The table is emptied when it holds this many strings, so that it stays bounded whatever the input. */
const MAX_ENTRIES = 1024;

const table = new Map<string, string>();

/**
 * One shared copy of a string that requests repeat (task descriptions in load tests and test suites): a parsed JSON
 * body makes a new string every time, and each stored copy of the same text costs its full length again. It stays
 * because it makes the heap of stored tasks markedly smaller (docs/decisions/performance.md).
 */
export function intern(s: string): string {
  if (s.length > MAX_LENGTH) return s;
  const shared = table.get(s);
  if (shared !== undefined) return shared;
  if (table.size >= MAX_ENTRIES) table.clear();
  table.set(s, s);
  return s;
}
