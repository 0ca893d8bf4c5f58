import type { ResetOptions, ResetResult, StepResult } from '../env.js';
import { Wrapper } from '../wrapper.js';

/**
 * Resets the environment automatically, as Gymnasium 1.x's `Autoreset` (next-step mode): the
 * step after an episode ends does not reach the env's `step()`; it resets the env and returns
 * `[resetObs, 0, false, false, resetInfo]`, ignoring the action.
 *
 * @example
 * ```ts
 * const env = new Autoreset(make('GuessNumber-v0'));
 * await env.reset({ seed: 0 });
 * for (let i = 0; i < 100; i++) await env.step(env.actionSpace.sample()); // never needs reset()
 * ```
 */
export class Autoreset<Obs = unknown, Act = unknown> extends Wrapper<Obs, Act> {
  private pendingReset = false;

  override async reset(options: ResetOptions = {}): Promise<ResetResult<Obs>> {
    this.pendingReset = false;
    return this.env.reset(options);
  }

  override async step(action: Act): Promise<StepResult<Obs>> {
    if (this.pendingReset) {
      const [obs, info] = await this.reset();
      return [obs, 0, false, false, info];
    }
    const result = await this.env.step(action);
    this.pendingReset = result[2] || result[3];
    return result;
  }
}
