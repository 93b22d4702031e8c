import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './core/testing/slow-first-sequencer.js';

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
    // The few files that take minutes start first, so the short ones fill the other core around them.
    sequence: { sequencer: SlowFirstSequencer },
  },
});
