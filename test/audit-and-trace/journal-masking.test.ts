/** The journal masks when it is read: paths, trace details and figures; masking twice changes nothing. */
import { describe, expect, it } from 'vitest';
import { Journal } from '../../src/core/journal.js';
import { maskKeys } from '../../src/core/mask.js';
import { addStep, type RawTrace } from '../../src/core/trace.js';
import type { PlainRequest } from '../../src/core/types.js';

const KEY = 'ak_jNUXtVkQpbXmF7g1kaRVzmzMnHrSGa8o';

describe('journal masking at read time', () => {
  it('masking a masked text leaves it as it is; a whole key before an ellipsis is still masked', () => {
    expect(maskKeys(`a ${KEY} b`)).toBe('a ak_jNUX… b');
    expect(maskKeys(maskKeys(`a ${KEY} b`))).toBe('a ak_jNUX… b');
    expect(maskKeys('ak_not_…')).toBe('ak_not_…');
    expect(maskKeys(`${KEY}…`)).toBe('ak_jNUX……');
  });

  it('a key in the path, a task id and a route step is stored raw and read masked', () => {
    const journal = new Journal(2);
    const req: PlainRequest = {
      method: 'GET',
      path: `/ext/tasks/${KEY}`,
      query: `api_key=${KEY}`,
      header: () => undefined,
      headers: { authorization: `Bearer ${KEY}` },
      body: KEY,
      clientId: 'c',
    };
    const trace: RawTrace = [];
    addStep(trace, 'route', 'fail', `GET /api/v1/ext/${KEY}`);
    addStep(trace, 'resource', 'fail', 'task', KEY);
    journal.record(
      {
        id: 1,
        at: 0,
        basePath: '/api/v1',
        status: 404,
        code: 'not_found',
        keyId: null,
        accountId: null,
        scenarios: [],
        trace,
      },
      req,
      { status: 404, headers: {}, body: `{"id":"${KEY}"}` },
    );
    const text = JSON.stringify(journal.list());
    expect(text).not.toContain(KEY.slice(3));
    expect(journal.list()[0]!.path).toBe('/api/v1/ext/tasks/ak_jNUX…?api_key=ak_jNUX…');
    expect(journal.list()[0]!.trace[1]!.figures).toEqual({ task_id: 'ak_jNUX…' });
  });

  it('reuses its ring slots: the bound holds and the oldest entry goes first', () => {
    const journal = new Journal(2);
    const req = (path: string): PlainRequest => ({
      method: 'GET',
      path,
      query: '',
      header: () => undefined,
      body: '',
      clientId: 'c',
    });
    const facts = (i: number) => ({
      id: i,
      at: i,
      basePath: '',
      status: 200,
      code: null,
      keyId: null,
      accountId: null,
      scenarios: [],
      trace: [],
    });
    for (let i = 1; i <= 5; i++) journal.record(facts(i), req(`/p${i}`), undefined);
    expect(journal.list().map((e) => [e.id, e.path, e.seq])).toEqual([
      ['req_000004', '/p4', 4],
      ['req_000005', '/p5', 5],
    ]);
  });
});
