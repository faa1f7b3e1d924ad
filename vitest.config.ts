import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two files at a time on the two cores: each file has its own database (cloned from the template), and
    // most of a file's time is spent waiting on PostgreSQL or child processes.
    maxWorkers: 2,
    globalSetup: ['test/harness/global-setup.ts'],
  },
});
