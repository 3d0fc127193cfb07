import { defineConfig } from 'vitest/config';

/** The two parallel files, run by test/parallel.test.ts against one CLI server: two workers, at the same time. */
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['*.parallel.ts'],
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
