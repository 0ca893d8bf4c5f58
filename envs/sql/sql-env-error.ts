import { SqlenvError } from '../../src/base/sqlenv-error.js';

/**
 * The root of SQLEnv's errors (datasets, the sandbox), and itself a misuse of SQLEnv by its caller (not by the agent): an empty
 * dataset, or a bad `make` option. Bad `reset()` options (an unknown key, question, database or split) are the Gymnasium
 * layer's `InvalidResetOptionsError` instead, which a server answers as a validation error. Agent mistakes never throw;
 * they come back as error observations.
 *
 * @example
 * ```ts
 * new SQLEnv({ stepbudget: 5 } as SqlEnvOptions); // throws SqlEnvError: unknown SQLEnv option "stepbudget" (did you mean "stepBudget"?)
 * ```
 */
export class SqlEnvError extends SqlenvError {}
