/**
 * SQLEnv: text-to-SQL with tools. Importing this module registers `SQLEnv-v0`.
 *
 * @example
 * ```ts
 * import { make } from 'sqlenv';
 * const env = make('SQLEnv-v0', { split: 'train' });
 * ```
 */
export * from './sql-env.js';
export * from './sql-env-error.js';
export * from './sql-reset-options.js';
export * from './sql-step-info.js';
export type { SqlResultData } from './episode/result-data.js';
export * from './register.js';
export * from './tools/index.js';
export * from './actions/index.js';
export * from './judge/index.js';
export * from './reward/index.js';
export * from './observation/index.js';
export * from './agents/index.js';
export * from './sandbox/index.js';
export * from './datasets/index.js';
export * from './validate/index.js';
export * from './feedback/index.js';
