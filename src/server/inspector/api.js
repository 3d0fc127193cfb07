// The control API, with the page's token (from `?token=`) when the sandbox asks for one.

export const token = new URLSearchParams(location.search).get('token');
export const auth = token ? { 'X-Sandbox-Token': token } : {};

export async function control(method, path, body) {
  const res = await fetch('/__sandbox' + path, {
    method,
    headers: { ...auth, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) {
    const e = await res.json().catch(() => null);
    const err = new Error(e && e.error ? e.error.code + ': ' + e.error.message : 'HTTP ' + res.status);
    err.status = res.status;
    throw err;
  }
  return res.status === 204 ? null : res.json();
}
