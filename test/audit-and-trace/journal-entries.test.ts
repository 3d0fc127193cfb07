/**
 * The journal's entries (src/core/journal.ts): what goes in comes out as it went in, whatever the texts hold (a NUL,
 * non-Latin-1 characters), whatever shape the door's headers have, however long the trace; the ring keeps the last
 * `capacity` entries.
 */
import { describe, expect, it } from 'vitest';
import { Journal, type EntryFacts, type JournalEntry } from '../../src/core/journal.js';
import { addStep, formatTrace, STRIDE, type RawTrace } from '../../src/core/trace.js';
import type { PlainRequest, PlainResponse } from '../../src/core/types.js';

function request(over: Partial<PlainRequest> = {}): PlainRequest {
  return {
    method: 'POST',
    path: '/ext/tasks',
    query: 'a=1',
    header: () => undefined,
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: '{"agent_id":"agt_1"}',
    clientId: 'c',
    ...over,
  };
}

const RESPONSE: PlainResponse = {
  status: 201,
  headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-RateLimit-Remaining': '59' },
  body: '{"id":"task_1"}',
};

function facts(trace: RawTrace, over: Partial<EntryFacts> = {}): EntryFacts {
  return {
    id: 7,
    at: 1_767_225_600_000,
    basePath: '/api/v1',
    status: 201,
    code: null,
    keyId: 'key_1',
    accountId: 'acc_1',
    scenarios: [],
    trace,
    ...over,
  };
}

/** A trace with every kind of figure: texts, integers, epoch ms, nano-dollars past 2^53's range of integers, booleans. */
function everyKind(): RawTrace {
  const trace: RawTrace = [];
  addStep(trace, 'key', 'pass', 'key_1', 'acc_1');
  addStep(trace, 'rate', 'pass', 100_000_000, 3, 1_767_225_660_000, false);
  addStep(trace, 'scope', 'pass', 'write:tasks', undefined);
  addStep(trace, 'idempotency', 'skip', undefined);
  addStep(trace, 'balance', 'pass', 1e15, 0.5, 123_456_789, 2 ** 60);
  addStep(trace, 'answer', 'pass', 201, null);
  return trace;
}

/** The only entry of a journal of one, or the entry at `index` (oldest first). */
function entryOf(journal: Journal, index = 0): JournalEntry {
  const entry = journal.list()[index];
  if (!entry) throw new Error(`no entry at ${index}`);
  return entry;
}

const traceOf = (trace: RawTrace) => formatTrace(trace, (text) => text);

describe('journal entries', () => {
  it('reads back every field, header and trace figure as written', () => {
    const journal = new Journal(4);
    const trace = everyKind();
    journal.record(facts(trace), request(), RESPONSE);
    const entry = entryOf(journal);
    expect(entry).toMatchObject({ seq: 1, id: 'req_000007', time: '2026-01-01T00:00:00.000Z', status: 201 });
    expect(entry).toMatchObject({ method: 'POST', path: '/api/v1/ext/tasks?a=1', keyId: 'key_1', accountId: 'acc_1' });
    expect(entry).toMatchObject({ code: null, latencyMs: 0 });
    expect(entry.request).toEqual({ headers: request().headers, body: request().body });
    // Header names read in lower case, as HTTP/2 and fetch's Headers spell them.
    const responseHeaders = { 'content-type': 'application/json; charset=utf-8', 'x-ratelimit-remaining': '59' };
    expect(entry.response).toEqual({ headers: responseHeaders, body: RESPONSE.body });
    expect(entry.trace).toEqual(traceOf(trace));
    expect(entry.trace).toHaveLength(trace.length / STRIDE);
    expect(journal.get('req_000007')).toEqual(entry);
  });

  it('a text holding NUL, or characters beyond Latin-1, comes back whole', () => {
    const journal = new Journal(2);
    const odd = 'a\u0000b\u0000\u0000c ✓ 日本';
    const trace: RawTrace = [];
    addStep(trace, 'body', 'fail', odd);
    journal.record(facts(trace), request({ path: `/x${odd}`, body: odd, headers: { 'x-odd': odd } }), {
      ...RESPONSE,
      body: odd,
    });
    const entry = entryOf(journal);
    expect(entry.path).toBe(`/api/v1/x${odd}?a=1`);
    expect(entry.request).toEqual({ headers: { 'x-odd': odd }, body: odd });
    expect(entry.response?.body).toBe(odd);
    expect(entry.trace).toEqual(traceOf(trace));
    expect(journal.summaries()[0]).toMatchObject({ path: `/api/v1/x${odd}?a=1` });
  });

  it("headers as the three doors hand them: node's object (lists joined), a Headers, none", () => {
    const journal = new Journal(3);
    const node = { host: 'h', 'set-cookie': ['a=1', 'b=2'], skipped: undefined };
    journal.record(facts([]), request({ headers: node }), undefined);
    journal.record(facts([]), request({ headers: new Headers({ Accept: 'text/plain', 'X-A': 'b' }) }), undefined);
    journal.record(facts([]), request({ headers: undefined }), undefined);
    expect(entryOf(journal, 0).request.headers).toEqual({ host: 'h', 'set-cookie': 'a=1, b=2' });
    expect(entryOf(journal, 1).request.headers).toEqual({ accept: 'text/plain', 'x-a': 'b' });
    expect(entryOf(journal, 2).request.headers).toEqual({});
  });

  it('no answer and a failed connection both read as no response', () => {
    const journal = new Journal(2);
    journal.record(facts([], { status: 0 }), request(), { status: 0, headers: {}, body: '', networkError: true });
    journal.record(facts([], { status: 404 }), request(), undefined);
    expect(entryOf(journal, 0).response).toBeNull();
    expect(entryOf(journal, 1).response).toBeNull();
  });

  it("an answer held back by a latency scenario keeps its delay as the entry's latency", () => {
    const journal = new Journal(3);
    journal.record(facts([]), request(), { ...RESPONSE, delayMs: 500 });
    journal.record(facts([], { status: 0 }), request(), { ...RESPONSE, networkError: true, delayMs: 200 });
    journal.record(facts([]), request(), RESPONSE);
    expect(journal.summaries().map((e) => e.latencyMs)).toEqual([0, 200, 500]);
  });

  it('bodies are cut at 16 KiB', () => {
    const journal = new Journal(1);
    const big = 'x'.repeat(20_000);
    journal.record(facts([]), request({ body: big }), { ...RESPONSE, body: big });
    expect(entryOf(journal).request.body).toHaveLength(16 * 1024);
    expect(entryOf(journal).response?.body).toHaveLength(16 * 1024);
  });

  it('a long trace is kept whole', () => {
    const journal = new Journal(1);
    const long: RawTrace = [];
    for (let i = 0; i < 20; i++) addStep(long, 'rate', 'pass', i, i, i, false);
    journal.record(facts(long), request(), RESPONSE);
    expect(entryOf(journal).trace).toEqual(traceOf(long));
  });

  it('a full ring drops the oldest entry first and holds only the newest', () => {
    const journal = new Journal(2);
    for (let id = 1; id <= 5; id++) journal.record(facts(everyKind(), { id }), request(), RESPONSE);
    expect(journal.size).toBe(2);
    expect(journal.list().map((e) => e.id)).toEqual(['req_000004', 'req_000005']);
    expect(journal.get('req_000003')).toBeUndefined();
    journal.clear();
    expect(journal.list()).toEqual([]);
  });
});
