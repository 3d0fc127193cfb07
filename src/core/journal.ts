/** One handled request. */
export interface JournalEntry {
  seq: number;
  /** ISO 8601 UTC, sandbox clock. */
  time: string;
  method: string;
  path: string;
  status: number;
  /** `error.code` of an error answer, else null. */
  code: string | null;
  keyId: string | null;
  accountId: string | null;
  /** Names of the scenarios in force for the request. */
  scenarios: string[];
}

interface RawEntry {
  seq: number;
  at: number;
  method: string;
  path: string;
  status: number;
  code: string | null;
  keyId: string | null;
  accountId: string | null;
  scenarios: string[];
}

export const DEFAULT_JOURNAL_SIZE = 1000;

/** A bounded journal of handled requests: a ring buffer, oldest dropped first. */
export class Journal {
  private ring: (RawEntry | undefined)[];
  private next = 0;
  private seq = 0;

  constructor(readonly capacity = DEFAULT_JOURNAL_SIZE) {
    this.ring = new Array<RawEntry | undefined>(Math.max(0, capacity));
  }

  record(entry: Omit<RawEntry, 'seq'>): void {
    if (this.capacity <= 0) return;
    this.seq += 1;
    const e = entry;
    this.ring[this.next] = { seq: this.seq, at: e.at, method: e.method, path: e.path, status: e.status, code: e.code, keyId: e.keyId, accountId: e.accountId, scenarios: e.scenarios };
    this.next = (this.next + 1) % this.capacity;
  }

  /** The entries, oldest first (newest last). */
  list(): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let i = 0; i < this.capacity; i++) {
      const e = this.ring[(this.next + i) % this.capacity];
      if (e) out.push({ seq: e.seq, time: new Date(e.at).toISOString(), method: e.method, path: e.path, status: e.status, code: e.code, keyId: e.keyId, accountId: e.accountId, scenarios: e.scenarios });
    }
    return out;
  }

  clear(): void {
    this.ring = new Array<RawEntry | undefined>(Math.max(0, this.capacity));
    this.next = 0;
    this.seq = 0;
  }
}
