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
  {
    // Library code throws its layer's typed errors (GymError, OnnxError, LmError, TrainError, …), never a bare Error.
    files: ['src/**/*.ts', 'envs/**/*.ts', 'data/**/*.ts'],
    ignores: ['src/onnx/optim/**'], // the resident training path's (being rewritten)
    rules: {
      'no-restricted-syntax': ['error', { selector: "ThrowStatement > NewExpression[callee.name='Error']", message: "Throw the layer's typed error (e.g. GymError, TrainError, SqlEnvError), not a bare Error." }],
    },
  },
);
