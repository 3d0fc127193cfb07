import type { PlainRequest } from './types.js';

/** Header lists in and out of the journal's joined texts (src/core/journal-store.ts). */

/** Pushes a header list's names and values (a list's values joined by ", "); returns how many headers. */
export function pushHeaders(pieces: string[], headers: PlainRequest['headers'] | Record<string, string>): number {
  if (!headers) return 0;
  const before = pieces.length;
  if (typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function') {
    (headers as Headers).forEach((value, name) => pieces.push(name, value));
  } else {
    const record = headers as Record<string, string | string[] | undefined>;
    for (const name in record) {
      const value = record[name];
      if (value !== undefined) pieces.push(name, Array.isArray(value) ? value.join(', ') : value);
    }
  }
  return (pieces.length - before) / 2;
}

export function headersOf(parts: readonly string[], first: number, count: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < count; i++) out[parts[first + 2 * i] ?? ''] = parts[first + 2 * i + 1] ?? '';
  return out;
}
