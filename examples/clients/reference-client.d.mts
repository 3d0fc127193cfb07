export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  /** Waits this many ms (default: a real timer; tests move the sandbox clock). */
  sleep?: (ms: number) => Promise<void>;
  maxAttempts?: number;
  fetch?: typeof fetch;
}
export declare class ApiError extends Error {
  status: number;
  code: string | undefined;
}
export declare class ReferenceClient {
  constructor(options: ClientOptions);
  listAgents(limit?: number): Promise<any>;
  createTask(task: { agent_id: string; description: string; priority?: string; model?: string }): Promise<any>;
  waitForTask(id: string, options?: { maxPolls?: number }): Promise<any>;
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<any>;
}
