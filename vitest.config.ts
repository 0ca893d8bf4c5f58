import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two-core machines: keep file-level parallelism modest so timing-sensitive
    // tests (worker pools, servers) are not starved.
    maxWorkers: 2,
  },
});
