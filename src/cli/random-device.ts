/**
 * Secure random values for the CLI's key index (src/model/key-index.ts, `useRandomSource`): read from the OS's random
 * device, which costs three system calls, where the first use of `globalThis.crypto` (or of `node:crypto`) loads
 * Node's crypto modules, which delays the start. Where there is no such device (Windows), `crypto`.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { RandomFill } from '../model/key-index.js';

const DEVICE = '/dev/urandom';

export const fillFromRandomDevice: RandomFill = (into) => {
  let fd: number | undefined;
  try {
    fd = openSync(DEVICE, 'r');
    const bytes = new Uint8Array(into.buffer, into.byteOffset, into.byteLength);
    if (readSync(fd, bytes, 0, bytes.length, null) === bytes.length) return;
  } catch {
    // no device here: crypto below
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  globalThis.crypto.getRandomValues(into);
};
