// ESLint: typed rules that catch what the compiler cannot — a promise nobody awaits, a promise
// passed where a plain callback is expected, a switch that forgets a member of a union.
// Run with `npm run lint` (part of `npm test`).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'runs/', 'clients/', 'models/', 'coverage/', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: { allowDefaultProject: ['vitest.config.ts'] }, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // A default branch does not make a switch over a union exhaustive: a new member must be handled.
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      'no-sparse-arrays': 'error',
    },
  },
);
