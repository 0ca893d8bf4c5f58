import { SqlenvError } from '../../src/base/sqlenv-error.js';

/**
 * The root of SQLEnv's errors (datasets, the sandbox), and itself a misuse of SQLEnv by its caller (not by the agent): an unknown `questionId` or `dbId` in
 * `reset()` options, an empty dataset, or a bad option. Agent mistakes never throw; they come
 * back as error observations.
 *
 * @example
 * ```ts
 * await env.reset({ options: { questionId: 'no-such-id' } }); // rejects with SqlEnvError listing real ids
 * ```
 */
export class SqlEnvError extends SqlenvError {}
