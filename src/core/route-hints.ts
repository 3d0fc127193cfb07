import { matchRoute } from './routes.js';

/** What the trace says to change when no route matches: the methods the path allows, or the nearest path. */

const METHODS = ['GET', 'POST'] as const;
/** The API's paths; `:id` stands for one path segment. */
const PATHS = ['/ext/agents', '/ext/agents/:id', '/ext/tasks', '/ext/tasks/:id', '/ext/usage'];
/** A path this many edits or fewer from one of the API's is taken for a typo of it. */
const MAX_EDITS = 3;

/** The methods other than `method` that the path answers (e.g. `GET` for `DELETE /ext/tasks/:id`). */
export function allowedMethods(method: string, path: string): string[] {
  return METHODS.filter((m) => m !== method && matchRoute(m, path) !== undefined);
}

/** The API's path nearest to a path that matches none (its id kept), or undefined when none is close. */
export function nearestPath(path: string): string | undefined {
  const cut = path.lastIndexOf('/');
  let best: string | undefined;
  let bestEdits = MAX_EDITS + 1;
  for (const candidate of PATHS) {
    const templated = candidate.endsWith('/:id');
    const compared = templated ? path.slice(0, cut) : path;
    const target = templated ? candidate.slice(0, -4) : candidate;
    if (templated && cut <= 0) continue;
    const edits = distance(compared, target);
    if (edits < bestEdits) {
      bestEdits = edits;
      best = templated ? `${target}${path.slice(cut)}` : target;
    }
  }
  return best === path ? undefined : best;
}

/** Levenshtein distance (paths are short: a row of numbers is enough). */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(
        (row[j] ?? 0) + 1,
        (next[j - 1] ?? 0) + 1,
        (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    row = next;
  }
  return row[b.length] ?? 0;
}
