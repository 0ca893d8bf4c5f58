import { SqlenvError } from '../base/sqlenv-error.js';

/**
 * The root of the recipes' errors: a recipe's configuration does not fit its environment or data.
 *
 * @example
 * ```ts
 * try { await createSqlTrainingSetup(config); } catch (e) { if (e instanceof RecipeError) console.error(e.message); else throw e; }
 * ```
 */
export class RecipeError extends SqlenvError {}
