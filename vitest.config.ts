import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Generous bounds: on a busy 2-core machine (load 16–37) a test that waits on readiness or an event
    // may take many times its idle duration; a bound only catches a test that hangs.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    teardownTimeout: 60_000,
    // Reports (and kills) any child process a test left running.
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    // Two cores: more workers only add contention on SQLite files and the shared PostgreSQL server.
    maxWorkers: 2,
  },
});
