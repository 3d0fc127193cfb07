/** A sandbox time (ms since the epoch) as the API and the library write it: ISO 8601, UTC, milliseconds. */
export const iso = (t: number): string => new Date(t).toISOString();
