import type { ClientOptions } from './reference-client.mjs';
export declare class NaiveClient {
  constructor(options: Omit<ClientOptions, 'maxAttempts'>);
  listAgents(limit?: number): Promise<any>;
  createTask(task: unknown): Promise<any>;
  waitForTask(id: string): Promise<any>;
  request(method: string, path: string, body?: unknown): Promise<any>;
}
