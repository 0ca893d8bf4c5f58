import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Finds (or builds, once) the Python venv with TRL, Gymnasium and transformers that the
    // test/python tests run on, and hands it to the workers as SQLENV_PYTHON.
    globalSetup: ['test/python/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two-core machines: keep file-level parallelism modest so timing-sensitive
    // tests (worker pools, servers) are not starved.
    maxWorkers: 2,
  },
});
