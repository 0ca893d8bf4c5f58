/**
 * The SQL recipe: SQLEnv joined to the generic trainer — the run's setup from a config, the rollout task
 * (prompt, tools, rendering, question order) and the decoding guide. The environment (envs/sql) knows
 * nothing of these; they know the environment and the trainer.
 *
 * @example
 * ```ts
 * import { createSqlTrainingSetup } from 'sqlenv/recipes';
 * const res = await createSqlTrainingSetup(config);
 * ```
 */
export * from './sql-training-setup.js';
export * from './trained-run.js';
export * from './found-versus-answered.js';
export * from './task/sql-task.js';
export * from './task/question-order.js';
export { sqlDecodingGuide } from './guide/sql-decoding-guide.js';
