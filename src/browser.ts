/**
 * agent-work-sandbox/browser: the browser-safe API, the same as the main entry (which is browser-safe too), named for
 * readers and for bundler setups that want the intent spelled out. Serve `sandbox.handlers` with msw's `setupWorker`.
 */
export * from './index.js';
