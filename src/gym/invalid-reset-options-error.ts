import { GymError } from './gym-error.js';

/** One option of `reset({ options })` that an env cannot honour, and why. */
export interface ResetOptionProblem {
  /** The option's key (e.g. `questionId`), or `options` for the whole object. */
  option: string;
  /** What is wrong and what to pass instead. */
  message: string;
}

/**
 * A caller passed `reset()` options the env cannot honour: an unknown key, a value of the wrong
 * type, or a value that names nothing (an unknown question, database or split). It is the
 * caller's mistake, not the env's failure, so a server answers it as a validation error (HTTP 422)
 * and keeps the session.
 *
 * @example
 * ```ts
 * throw new InvalidResetOptionsError([{ option: 'spilt', message: 'unknown option "spilt" (did you mean "split"?)' }]);
 * ```
 */
export class InvalidResetOptionsError extends GymError {
  constructor(readonly problems: readonly ResetOptionProblem[]) {
    super(problems.map((p) => p.message).join('; '));
  }
}
