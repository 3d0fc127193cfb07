import { overSocket, type Door } from '../support/doors.js';
import { startReceiver } from './receiver.js';

/** What `served()` gives: the sandbox's door, a receiver, a call of its control API, and `close` for both. */
export interface Served {
  door: Door;
  hook: Awaited<ReturnType<typeof startReceiver>>;
  /** A control-API call (`/__sandbox` + path), a body sent as JSON; the answer's status and parsed body. */
  req: (method: string, path: string, body?: unknown) => Promise<{ status: number; json: any }>;
  close: () => Promise<void>;
}

/** A sandbox on a manual clock served on 127.0.0.1, and a webhook receiver answering `statuses` (see startReceiver). */
export async function served(statuses: number[] = [204]): Promise<Served> {
  const door = await overSocket({ clock: 'manual' });
  const control = door.baseUrl.replace(/\/api\/v1$/, '/__sandbox');
  const hook = await startReceiver(statuses);
  return {
    door,
    hook,
    req: async (method, path, body) => {
      const res = await fetch(`${control}${path}`, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, json: text ? JSON.parse(text) : undefined };
    },
    close: async () => {
      await door.close();
      await hook.close();
    },
  };
}
