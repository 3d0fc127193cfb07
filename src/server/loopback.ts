import { isIP } from 'node:net';

/**
 * Whether a host name or address is a loopback one (the control API needs no token there, and answers only requests
 * addressed to it). Only IP literals in 127.0.0.0/8, `::1` and exactly `localhost`: a name such as
 * `127.attacker.example` is a DNS name its owner can point anywhere (DNS rebinding), so it is not loopback.
 */
export function isLoopback(host: string): boolean {
  const name = host.toLowerCase();
  if (name === 'localhost' || name === '::1' || name === '[::1]') return true;
  return isIP(name) === 4 && name.startsWith('127.');
}

/** The host name of a `Host` header value (`127.0.0.1:4747`, `[::1]:80`, `localhost`), without brackets; '' if unreadable. */
export function hostOfHeader(value: string | undefined): string {
  if (!value) return '';
  try {
    const url = new URL(`http://${value}`);
    // The header must be a host and an optional port only: nothing URL parsing would quietly drop or fold.
    if (url.host.toLowerCase() !== value.toLowerCase().replace(/:80$/, '')) return '';
    return url.hostname.replace(/^\[|\]$/g, '');
  } catch {
    return '';
  }
}
