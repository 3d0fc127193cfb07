import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    globalSetup: ['test/support/global-setup.ts'],
    // Every control-API answer a test fetches is checked against the control API's OpenAPI document.
    setupFiles: ['test/support/control-contract-setup.ts'],
    // The inspector imports its styles as text (`?raw`): Vitest must hand over the CSS, not an empty module.
    css: { include: [/\.css\b/] },
  },
});
