import type { Scope } from '../model/scopes.js';

/** A key grants an endpoint's scope if it holds that scope or `admin` ("A key with admin may call every endpoint"). */
export function grants(scopes: readonly Scope[], needed: Scope): boolean {
  return scopes.includes(needed) || scopes.includes('admin');
}
