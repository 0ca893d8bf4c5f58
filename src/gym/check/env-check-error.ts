import { GymError } from '../gym-error.js';

/**
 * An environment failed one of {@link checkEnv}'s (or PassiveEnvChecker's) checks. `check` names
 * the check (e.g. `'reset-seed-determinism'`); the message says what is wrong and how to fix it.
 *
 * @example
 * ```ts
 * try { await checkEnv(env); } catch (e) { if (e instanceof EnvCheckError) console.log(e.check); }
 * ```
 */
export class EnvCheckError extends GymError {
  constructor(
    readonly check: string,
    problem: string,
    fix: string,
  ) {
    super(`env check '${check}' failed: ${problem}. Fix: ${fix}`);
    this.name = 'EnvCheckError';
  }
}
