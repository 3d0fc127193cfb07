/**
 * Every `fetch` of the suite that reaches a control API (`/__sandbox/…`) has its answer checked against the control
 * API's OpenAPI document (control-contract.ts). `SANDBOX_CONTRACT=0` turns it off.
 */
import { checkControlAnswer } from './control-contract.js';

if (process.env.SANDBOX_CONTRACT !== '0') {
  const original = globalThis.fetch;
  globalThis.fetch = async function checkedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const res = await original(input, init);
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.pathname === '/__sandbox' || url.pathname.startsWith('/__sandbox/')) {
      const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
      const text = await res.clone().text();
      checkControlAnswer(method, url.pathname, { status: res.status, headers: res.headers, text });
    }
    return res;
  };
}
