// A reference client of the Agent Work Service API: it follows every rule of the sandbox's integration audit
// (docs/guides/explain-and-audit.md). Plain fetch, no dependencies; copy what you need.
//
//   const client = new ReferenceClient({ baseUrl: 'http://127.0.0.1:4010/api/v1', apiKey: process.env.AGENT_WORK_KEY })
//   const task = await client.createTask({ agent_id, description: 'Summarise this.' })
//   const done = await client.waitForTask(task.id)

/** An answer the client does not retry: 400, 401, 402, 403, 404, or a retry budget spent. */
export class ApiError extends Error {
  constructor(status, body) {
    super(`${status} ${body?.error?.code ?? 'error'}: ${body?.error?.message ?? ''}`);
    this.status = status;
    this.code = body?.error?.code;
  }
}

export class ReferenceClient {
  /**
   * @param {{ baseUrl: string, apiKey: string, sleep?: (ms: number) => Promise<void>, maxAttempts?: number, fetch?: typeof fetch }} options
   * `sleep` defaults to a real timer; tests pass one that moves the sandbox clock.
   */
  constructor({
    baseUrl,
    apiKey,
    sleep = (ms) => new Promise((r) => setTimeout(r, ms)),
    maxAttempts = 5,
    fetch: f = globalThis.fetch,
  }) {
    this.baseUrl = baseUrl;
    this.apiKey = apiKey;
    this.sleep = sleep;
    this.maxAttempts = maxAttempts;
    this.fetch = f;
  }

  /** GET /ext/agents (one page). */
  async listAgents(limit = 20) {
    return this.request('GET', `/ext/agents?limit=${limit}`);
  }

  /** POST /ext/tasks with one Idempotency-Key for the task, reused on every retry: a retry never creates a second task. */
  async createTask(task) {
    return this.request('POST', '/ext/tasks', task, { 'Idempotency-Key': crypto.randomUUID() });
  }

  /** Polls a task until it ends: first after a second, then backing off up to 10 s between polls. */
  async waitForTask(id, { maxPolls = 50 } = {}) {
    let wait = 1000;
    for (let i = 0; i < maxPolls; i++) {
      await this.sleep(wait);
      const task = await this.request('GET', `/ext/tasks/${encodeURIComponent(id)}`);
      if (task.status === 'completed' || task.status === 'failed') return task;
      wait = Math.min(wait * 2, 10_000);
    }
    throw new Error(`Task ${id} did not end after ${maxPolls} polls.`);
  }

  /**
   * One request with the key in the Authorization header only, JSON bodies with their Content-Type, and retries that
   * wait as told: 429 until the window resets (Retry-After), 503 its Retry-After, 500 and failed connections with
   * exponential backoff. 4xx other than 429 are final.
   */
  async request(method, path, body, headers = {}) {
    for (let attempt = 1; ; attempt++) {
      let res;
      try {
        res = await this.fetch(`${this.baseUrl}${path}`, {
          method,
          headers: {
            Authorization: `Bearer ${this.apiKey}`,
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
            ...headers,
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (error) {
        if (attempt >= this.maxAttempts) throw error;
        await this.sleep(backoff(attempt));
        continue;
      }
      const json = await res.json().catch(() => undefined);
      if (res.ok) return json;
      const retryable = res.status === 429 || res.status >= 500;
      if (!retryable || attempt >= this.maxAttempts) throw new ApiError(res.status, json);
      // Retry-After is relative, so it does not depend on the two clocks agreeing; it reaches the window's reset.
      const after = Number(res.headers.get('Retry-After'));
      await this.sleep(Number.isFinite(after) && after > 0 ? after * 1000 : backoff(attempt));
    }
  }
}

/** 1 s, 2 s, 4 s… up to 30 s. */
function backoff(attempt) {
  return Math.min(30_000, 1000 * 2 ** (attempt - 1));
}
