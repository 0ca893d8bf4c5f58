/**
 * The root of every error this project throws on purpose. Each layer has its own root under it
 * (`GymError`, `OnnxError`, `LmError`, `TrainError`, `RemoteError`, `SqlEnvError`, `DataError`,
 * `RecipeError`, `CliError`), so a caller can catch one layer's failures, or all of them, by class.
 * The error's `name` is its class name.
 *
 * @example
 * ```ts
 * try { await main(); } catch (e) { if (e instanceof SqlenvError) console.error(`${e.name}: ${e.message}`); else throw e; }
 * ```
 */
export class SqlenvError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}
