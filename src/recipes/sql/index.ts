/**
 * The SQL recipe: SQLEnv joined to the generic trainer — the run's setup from a config, the rollout task
 * (prompt, tools, rendering, question order) and the decoding guide. The environment (envs/sql) knows
 * nothing of these; they know the environment and the trainer.
 *
 * @example
 * ```ts
 * import { createSqlTrainingSetup, loadSqlTrainConfig } from 'sqlenv/recipes';
 * const res = await createSqlTrainingSetup(await loadSqlTrainConfig('examples/grpo-sql/config.json'));
 * ```
 */
export * from './sql-config.js';
export * from './oracle-sft-data.js';
export * from './sql-training-setup.js';
export * from './trained-run.js';
export * from './found-versus-answered.js';
export * from './task/sql-task.js';
export * from './task/question-order.js';
export { sqlDecodingGuide } from './guide/sql-decoding-guide.js';
