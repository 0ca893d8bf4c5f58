import { EnvCheckError } from '../check/env-check-error.js';
import { checkResetResult, checkStepResult, type CheckWarning } from '../check/result-checks.js';
import type { Env, ResetOptions, ResetResult, StepResult } from '../env.js';
import { Space } from '../spaces/space.js';
import { Wrapper } from '../wrapper.js';

/** Options of {@link PassiveEnvChecker}. */
export interface PassiveEnvCheckerOptions {
  /** Receives each warning (default: `process.emitWarning` with type `EnvCheckWarning`). */
  onWarning?: (warning: CheckWarning) => void;
}

/**
 * Checks the environment's spaces at construction, and the results of the first `reset()` and
 * the first `step()` only (so it costs nothing afterwards), as Gymnasium's `PassiveEnvChecker`.
 * Broken API contracts (wrong tuple shapes, non-boolean flags, non-object info, non-numeric
 * reward, spaces that are not Spaces) throw {@link EnvCheckError}; likely bugs (observation
 * outside its space, non-finite reward) are warnings, collected in {@link warnings}.
 *
 * @example
 * ```ts
 * const env = new PassiveEnvChecker(new GuessNumber());
 * await env.reset();         // checked
 * await env.step(50);        // checked
 * env.warnings;              // []
 * ```
 */
export class PassiveEnvChecker<Obs = unknown, Act = unknown> extends Wrapper<Obs, Act> {
  /** Warnings raised so far. */
  readonly warnings: CheckWarning[] = [];
  private checkedReset = false;
  private checkedStep = false;
  private readonly onWarning: (warning: CheckWarning) => void;

  constructor(env: Env<Obs, Act>, options: PassiveEnvCheckerOptions = {}) {
    super(env);
    this.onWarning = options.onWarning ?? ((w) => process.emitWarning(`${w.check}: ${w.message}`, 'EnvCheckWarning'));
    for (const [name, space] of [
      ['actionSpace', env.actionSpace],
      ['observationSpace', env.observationSpace],
    ] as const) {
      if (!(space instanceof Space)) {
        throw new EnvCheckError(`${name === 'actionSpace' ? 'action' : 'observation'}-space`, `${env.toString()}.${name} is ${String(space)}, not a Space`, `assign a Space (e.g. \`${name} = new Discrete(3)\`) in the environment's constructor`);
      }
    }
  }

  override async reset(options: ResetOptions = {}): Promise<ResetResult<Obs>> {
    const result = await this.env.reset(options);
    if (!this.checkedReset) {
      this.checkedReset = true;
      this.report(checkResetResult(result, this.observationSpace));
    }
    return result;
  }

  override step(action: Act): Promise<StepResult<Obs>> {
    if (this.checkedStep) return this.env.step(action);
    return this.env.step(action).then((result) => {
      this.checkedStep = true;
      this.report(checkStepResult(result, this.observationSpace));
      return result;
    });
  }

  private report(warnings: CheckWarning[]): void {
    for (const warning of warnings) {
      this.warnings.push(warning);
      this.onWarning(warning);
    }
  }
}
