/**
 * The journal's columns (src/core/journal-store.ts): what goes in comes out as it went in, whatever the texts hold
 * (a NUL, a key, non-Latin-1 characters), whatever shape the door's headers have, however long the trace; and the
 * columns grow with the entries, never past the capacity.
 */
import { describe, expect, it } from 'vitest';
import { JournalStore, type EntryFacts } from '../../src/core/journal-store.js';
import { addStep, STRIDE, type RawTrace } from '../../src/core/trace.js';
import type { PlainRequest, PlainResponse } from '../../src/core/types.js';

function request(over: Partial<PlainRequest> = {}): PlainRequest {
  return {
    method: 'POST',
    path: '/ext/tasks',
    query: 'a=1',
    header: () => undefined,
    headers: { authorization: 'Bearer ak_x', 'content-type': 'application/json' },
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

describe('journal store', () => {
  it('reads back every field, header and trace figure as written', () => {
    const store = new JournalStore(4);
    const trace = everyKind();
    store.write(0, 1, facts(trace), request(), RESPONSE);
    const entry = store.read(0);
    expect(entry).toMatchObject({ seq: 1, id: 7, at: 1_767_225_600_000, status: 201, method: 'POST' });
    expect(entry).toMatchObject({ path: '/ext/tasks', query: 'a=1', keyId: 'key_1', accountId: 'acc_1', code: null });
    expect(entry.request).toEqual({ headers: request().headers, body: request().body });
    expect(entry.response).toEqual({ headers: RESPONSE.headers, body: RESPONSE.body });
    expect(entry.trace).toEqual(trace);
    expect(entry.trace).toHaveLength(6 * STRIDE);
  });

  it('a text holding NUL (the separator), or characters beyond Latin-1, comes back whole', () => {
    const store = new JournalStore(2);
    const odd = 'a\u0000b\u0000\u0000c ✓ 日本';
    const trace: RawTrace = [];
    addStep(trace, 'body', 'fail', odd);
    store.write(0, 1, facts(trace), request({ path: `/x${odd}`, body: odd, headers: { 'x-odd': odd } }), {
      ...RESPONSE,
      body: odd,
    });
    const entry = store.read(0);
    expect(entry.path).toBe(`/x${odd}`);
    expect(entry.query).toBe('a=1');
    expect(entry.request).toEqual({ headers: { 'x-odd': odd }, body: odd });
    expect(entry.response?.body).toBe(odd);
    expect(entry.trace).toEqual(trace);
    expect(store.summary(0)).toMatchObject({ path: `/x${odd}`, query: 'a=1' });
  });

  it("headers as the three doors hand them: node's object (lists joined), a Headers, none", () => {
    const store = new JournalStore(3);
    const node = { host: 'h', 'set-cookie': ['a=1', 'b=2'], skipped: undefined };
    store.write(0, 1, facts([]), request({ headers: node }), undefined);
    store.write(1, 2, facts([]), request({ headers: new Headers({ Accept: 'text/plain', 'X-A': 'b' }) }), undefined);
    store.write(2, 3, facts([]), request({ headers: undefined }), undefined);
    expect(store.read(0).request.headers).toEqual({ host: 'h', 'set-cookie': 'a=1, b=2' });
    expect(store.read(1).request.headers).toEqual({ accept: 'text/plain', 'x-a': 'b' });
    expect(store.read(2).request.headers).toEqual({});
  });

  it('no answer and a failed connection both read as no response', () => {
    const store = new JournalStore(2);
    store.write(0, 1, facts([], { status: 0 }), request(), { status: 0, headers: {}, body: '', networkError: true });
    store.write(1, 2, facts([], { status: 404 }), request(), undefined);
    expect(store.read(0).response).toBeNull();
    expect(store.read(1).response).toBeNull();
  });

  it('an entry with no header and no text in its trace reads its path and query', () => {
    const store = new JournalStore(1);
    store.write(0, 1, facts([]), request({ headers: undefined, query: 'limit=2' }), undefined);
    expect(store.summary(0)).toMatchObject({ path: '/ext/tasks', query: 'limit=2' });
    expect(store.read(0)).toMatchObject({ path: '/ext/tasks', query: 'limit=2', request: { headers: {} } });
  });

  it('bodies are cut at 16 KiB', () => {
    const store = new JournalStore(1);
    const big = 'x'.repeat(20_000);
    store.write(0, 1, facts([]), request({ body: big }), { ...RESPONSE, body: big });
    expect(store.read(0).request.body).toHaveLength(16 * 1024);
    expect(store.read(0).response?.body).toHaveLength(16 * 1024);
  });

  it('a trace longer than the columns hold, or with a step it does not know, is kept whole', () => {
    const store = new JournalStore(2);
    const long: RawTrace = [];
    for (let i = 0; i < 20; i++) addStep(long, 'rate', 'pass', i, i, i, false);
    const unknown: RawTrace = ['later-step', 'pass', 1, 'x', null, undefined];
    store.write(0, 1, facts(long), request(), RESPONSE);
    store.write(1, 2, facts(unknown), request(), RESPONSE);
    expect(store.read(0).trace).toEqual(long);
    expect(store.read(1).trace).toEqual(unknown);
    // A slot written again with a short trace reads the new one.
    store.write(0, 3, facts(everyKind()), request(), RESPONSE);
    expect(store.read(0).trace).toEqual(everyKind());
  });

  it('a slot written again holds only the new entry', () => {
    const store = new JournalStore(1);
    store.write(0, 1, facts(everyKind()), request({ headers: { a: '1', b: '2', c: '3' } }), RESPONSE);
    store.write(0, 2, facts([], { status: 404, code: 'not_found' }), request({ headers: { z: '9' } }), undefined);
    const entry = store.read(0);
    expect(entry).toMatchObject({ seq: 2, status: 404, code: 'not_found', trace: [], response: null });
    expect(entry.request.headers).toEqual({ z: '9' });
  });

  it('grows its columns with the entries, up to the capacity and not beyond', () => {
    const store = new JournalStore(200);
    for (let slot = 0; slot < 200; slot++)
      store.write(slot, slot + 1, facts(everyKind(), { id: slot }), request(), RESPONSE);
    expect(store.has(199)).toBe(true);
    expect(store.has(200)).toBe(false);
    for (const slot of [0, 63, 64, 127, 128, 199]) {
      expect(store.idAt(slot)).toBe(slot);
      expect(store.read(slot).trace).toEqual(everyKind());
    }
  });
});
