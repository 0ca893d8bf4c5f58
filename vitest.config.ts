import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  // The package imports itself by name (examples, docs snippets): the names resolve to the sources,
  // as tsconfig.json's "paths" does for the compiler.
  resolve: {
    alias: [
      { find: /^sqlenv$/, replacement: source('./src/index.ts') },
      { find: /^sqlenv\/(onnx|lm|train|recipes)$/, replacement: source('./src/$1/index.ts') },
    ],
  },
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
