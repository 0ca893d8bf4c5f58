/**
 * The root of the Gymnasium layer's errors (registry, spaces, wrappers, vector envs, the env checker).
 *
 * @example
 * ```ts
 * try { make('NoSuchEnv-v0'); } catch (e) { if (e instanceof GymError) console.error(e.message); }
 * ```
 */
import { SqlenvError } from '../base/sqlenv-error.js';

export class GymError extends SqlenvError {}
