import type { Env } from '../env.js';
import { RewardWrapper } from '../wrapper.js';

/**
 * Applies a function to every reward, as Gymnasium's `TransformReward`.
 *
 * @example
 * ```ts
 * const scaled = new TransformReward(make('GuessNumber-v0'), (r) => 10 * r);
 * ```
 */
export class TransformReward<Obs = unknown, Act = unknown> extends RewardWrapper<Obs, Act> {
  constructor(
    env: Env<Obs, Act>,
    private readonly fn: (reward: number) => number,
  ) {
    super(env);
  }

  reward(reward: number): number {
    return this.fn(reward);
  }
}
