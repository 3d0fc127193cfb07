// A user's handlers module, as `--handlers FILE` loads it: endpoints the API document does not show yet.
import { http, HttpResponse } from 'msw';

export const handlers = [
  http.get('*/api/v1/ext/analytics', ({ request }) => {
    const scopes = (request.headers.get('x-sandbox-scopes') ?? '').split(' ');
    if (!scopes.includes('read:analytics') && !scopes.includes('admin')) {
      return HttpResponse.json(
        { error: { code: 'insufficient_scope', message: "This API key lacks the required scope 'read:analytics'." } },
        { status: 403 },
      );
    }
    return HttpResponse.json({ account_id: request.headers.get('x-sandbox-account-id'), p50_ms: 840 });
  }),
  http.post('*/api/v1/ext/agents', async ({ request }) =>
    HttpResponse.json({ id: 'agt_custom', ...(await request.json()) }, { status: 201 }),
  ),
  http.get('*/api/v1/ext/teapot', () => new HttpResponse('short and stout', { status: 418 })),
  http.get('*/api/v1/ext/broken', () => {
    throw new Error('boom at /secret/path.js');
  }),
];
