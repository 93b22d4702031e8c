import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'bot/**/*.test.ts',
      'local-slack/**/*.test.ts',
      'agent/**/*.test.ts',
      'mcp-server/**/*.test.ts',
      'schema/**/*.test.ts',
      'evals/**/*.test.ts',
      'scripts/**/*.test.ts',
      'core/**/*.test.ts',
    ],
    globalSetup: ['core/testing/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own database; files run in parallel on the two cores CI has.
    pool: 'forks',
    maxWorkers: 2,
  },
});
