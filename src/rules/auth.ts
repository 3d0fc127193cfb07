import { ApiError } from './errors.js';

/** A key has the shape `ak_<body>`; the body is URL-safe base-64 characters. */
const KEY_SHAPE = /^ak_[A-Za-z0-9_-]{1,256}$/;

/**
 * Reads the `Authorization` header. No header, an empty one, `Bearer` with no key or another scheme → `missing_api_key`;
 * a credential not of the form `ak_<body>` → `invalid_api_key`. The scheme is case-insensitive.
 * @returns the key to look up.
 */
export function readBearerKey(header: string | undefined): string {
  // The usual form, `Bearer ak_…` with nothing around it: what the general reading below gives, without its steps.
  if (header !== undefined && header.startsWith('Bearer ak_')) {
    const key = header.slice(7);
    if (KEY_SHAPE.test(key)) return key;
  }
  const value = header?.trim();
  if (!value) throw new ApiError('missing_api_key');
  const space = value.search(/\s/);
  const scheme = space === -1 ? value : value.slice(0, space);
  if (scheme.toLowerCase() !== 'bearer') throw new ApiError('missing_api_key');
  const key = space === -1 ? '' : value.slice(space).trim();
  if (key === '') throw new ApiError('missing_api_key');
  if (!KEY_SHAPE.test(key)) throw new ApiError('invalid_api_key');
  return key;
}
