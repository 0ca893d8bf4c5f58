/**
 * A misuse of SQLEnv by its caller (not by the agent): an unknown `questionId` or `dbId` in
 * `reset()` options, an empty dataset, or a bad option. Agent mistakes never throw; they come
 * back as error observations.
 *
 * @example
 * ```ts
 * await env.reset({ options: { questionId: 'no-such-id' } }); // rejects with SqlEnvError listing real ids
 * ```
 */
export class SqlEnvError extends Error {
  override readonly name = 'SqlEnvError';
}
