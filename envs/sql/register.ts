import { register, type EnvTypes } from '../../src/gym/registry.js';
import type { SqlObservation } from './observation/sql-observation.js';
import { SQLEnv, type SqlAction, type SqlEnvOptions } from './sql-env.js';

// `make('SQLEnv-v0', …)` returns Env<SqlObservation, SqlAction> and checks its kwargs.
declare module '../../src/gym/registry.js' {
  interface RegisteredEnvs {
    'SQLEnv-v0': EnvTypes<SqlObservation, SqlAction, SqlEnvOptions>;
  }
}

/** The registered id of SQLEnv: `make(SQL_ENV_ID)`. */
export const SQL_ENV_ID = 'SQLEnv-v0';

/**
 * Register `SQLEnv-v0` (bundled data, split `train`, 10-step budget) in the default registry.
 * Importing `envs/sql/index.ts` (or the package root) calls it once.
 *
 * @example
 * ```ts
 * registerSqlEnv();
 * const env = make('SQLEnv-v0', { split: 'eval' });
 * ```
 */
export function registerSqlEnv(): void {
  register<SqlEnvOptions>(SQL_ENV_ID, {
    entryPoint: (kwargs) => new SQLEnv(kwargs),
    kwargs: { dataset: 'bundled', split: 'train', stepBudget: 10 },
    description: 'Text-to-SQL with tools (describe, sample, query, answer), dense shaped rewards and an exact judge.',
  });
}

registerSqlEnv();
