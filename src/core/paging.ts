import { ApiError } from '../rules/errors.js';

export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;

const INTEGER = /^[0-9]+$/;

/** `?limit=`: an integer from 1 to 100, default 20. */
export function parseLimit(raw: string | null): number {
  if (raw === null) return DEFAULT_PAGE_LIMIT;
  const n = INTEGER.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE_LIMIT) {
    throw new ApiError(
      'invalid_request',
      `Invalid query parameter 'limit': must be an integer from 1 to ${MAX_PAGE_LIMIT}.`,
    );
  }
  return n;
}

/** Cursors are opaque to clients: the base64url form of the last id of the page before. */
export function encodeCursor(lastId: string): string {
  return btoa(lastId).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes a cursor to the id it names, or throws 400 naming the parameter. `isKnown` says whether that id was listed. */
export function decodeCursor(raw: string, isKnown: (id: string) => boolean): string {
  let id: string | undefined;
  try {
    id = /^[A-Za-z0-9_-]+$/.test(raw) ? atob(raw.replace(/-/g, '+').replace(/_/g, '/')) : undefined;
  } catch {
    id = undefined;
  }
  if (id === undefined || !isKnown(id) || encodeCursor(id) !== raw) {
    throw new ApiError(
      'invalid_request',
      "Invalid query parameter 'cursor': it was not issued by this API. Use the next_cursor of a previous page.",
    );
  }
  return id;
}
