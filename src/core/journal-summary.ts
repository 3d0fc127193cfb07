/**
 * The journal as a stable list for a snapshot test (`sandbox.journal.summary()`, `GET /__sandbox/requests/summary`):
 * method, path template and status of each request, with ids normalised, secrets masked and no times, so that the
 * same client run gives the same list whatever the seed, the clock or the keys.
 */
import type { JournalSummary } from './journal.js';
import { matchRoute } from './routes.js';

/** One request of the summary. */
export interface SummaryLine {
  method: string;
  /** The route's template (`/api/v1/ext/tasks/:id`), with the query (ids in it numbered, keys masked). */
  path: string;
  status: number;
  /** `error.code` of an error answer, else null. */
  code: string | null;
}

/** A drawn id (`task_` and 16 base-36 characters, or any `prefix_` id the sandbox mints). */
const DRAWN_ID = /\b([a-z]{2,5})_[a-z0-9]{16}\b/g;
const API_KEY = /ak_[A-Za-z0-9_-]*…?/gi;

/** The summary of `entries` (oldest first): ids numbered in the order they first appear (`task_1`, `task_2`). */
export function summarise(entries: readonly JournalSummary[], basePath: string): SummaryLine[] {
  const numbers = new Map<string, string>();
  const counts = new Map<string, number>();
  const normalise = (text: string) =>
    text.replace(API_KEY, 'ak_…').replace(DRAWN_ID, (id, prefix: string) => {
      let named = numbers.get(id);
      if (named === undefined) {
        const n = (counts.get(prefix) ?? 0) + 1;
        counts.set(prefix, n);
        named = `${prefix}_${n}`;
        numbers.set(id, named);
      }
      return named;
    });
  return entries.map((e) => {
    const q = e.path.indexOf('?');
    const path = q === -1 ? e.path : e.path.slice(0, q);
    const query = q === -1 ? '' : e.path.slice(q);
    const below = path.startsWith(basePath + '/') ? path.slice(basePath.length) : undefined;
    const route = below === undefined ? undefined : matchRoute(e.method, below);
    const template = route ? basePath + route.route.endpoint.slice(route.route.endpoint.indexOf(' ') + 1) : path;
    return { method: e.method, path: normalise(template + query), status: e.status, code: e.code };
  });
}
