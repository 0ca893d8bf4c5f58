import type { Env, ResetOptions, ResetResult, StepResult } from '../env.js';
import { Wrapper } from '../wrapper.js';

/**
 * Truncates episodes after `maxEpisodeSteps` steps, as Gymnasium's `TimeLimit`: the step that
 * reaches the limit returns `truncated = true` (it may also be `terminated`).
 *
 * @example
 * ```ts
 * const env = new TimeLimit(new GuessNumber(), 5);
 * ```
 */
export class TimeLimit<Obs = unknown, Act = unknown> extends Wrapper<Obs, Act> {
  private elapsed = 0;

  constructor(
    env: Env<Obs, Act>,
    readonly maxEpisodeSteps: number,
  ) {
    super(env);
    if (!Number.isSafeInteger(maxEpisodeSteps) || maxEpisodeSteps <= 0) {
      throw new RangeError(`TimeLimit needs a positive integer maxEpisodeSteps, got ${maxEpisodeSteps}`);
    }
  }

  /** Steps taken in the current episode. */
  get elapsedSteps(): number {
    return this.elapsed;
  }

  override async reset(options: ResetOptions = {}): Promise<ResetResult<Obs>> {
    this.elapsed = 0;
    return this.env.reset(options);
  }

  override async step(action: Act): Promise<StepResult<Obs>> {
    const [obs, reward, terminated, truncated, info] = await this.env.step(action);
    this.elapsed++;
    return [obs, reward, terminated, truncated || this.elapsed >= this.maxEpisodeSteps, info];
  }
}
