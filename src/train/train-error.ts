import { SqlenvError } from '../base/sqlenv-error.js';

/**
 * The root of the trainer's errors: `catch (e) { if (e instanceof TrainError) … }` catches every
 * failure the trainer reports about its configuration, inputs, checkpoints or run.
 */

/**
 * Something the trainer cannot do as configured; the message says what to change.
 *
 * @example
 * ```ts
 * try { await runTraining(setup); } catch (e) { if (e instanceof TrainError) console.error(e.message); else throw e; }
 * ```
 */
export class TrainError extends SqlenvError {}
