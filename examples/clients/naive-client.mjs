// A naive client of the Agent Work Service API, the kind the sandbox's integration audit is for: it works on a good
// day and hurts in production. Each shortcut is marked with the audit rule it breaks (docs/guides/explain-and-audit.md).
// Do not copy it: see reference-client.mjs.

export class NaiveClient {
  constructor({ baseUrl, apiKey, sleep = (ms) => new Promise((r) => setTimeout(r, ms)), fetch: f = globalThis.fetch }) {
    this.baseUrl = baseUrl;
    this.apiKey = apiKey;
    this.sleep = sleep;
    this.fetch = f;
  }

  async listAgents(limit = 20) {
    // key-in-url: the key in the query string, where proxies and logs keep it (the header is sent too).
    return this.request('GET', `/ext/agents?limit=${limit}&api_key=${this.apiKey}`);
  }

  async createTask(task) {
    // unsafe-post-retry: no Idempotency-Key, and retried on 5xx; ignored-402: retried on 402 too.
    return this.request('POST', '/ext/tasks', task);
  }

  async waitForTask(id) {
    // polling-storm: ten polls a second.
    for (;;) {
      const task = await this.request('GET', `/ext/tasks/${id}`);
      if (task.status === 'completed' || task.status === 'failed') return task;
      await this.sleep(100);
    }
  }

  async request(method, path, body) {
    let last;
    for (let attempt = 0; attempt < 3; attempt++) {
      // missing-content-type: a string body without a Content-Type (fetch sends text/plain).
      last = await this.fetch(`${this.baseUrl}${path}`, {
        method,
        headers: { Authorization: `Bearer ${this.apiKey}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (last.ok) return last.json();
      // retry-before-reset, retry-after-503-ignored: retries at once, whatever the answer says.
    }
    const json = await last.json().catch(() => undefined);
    throw new Error(`${last.status} ${json?.error?.code}`);
  }
}
