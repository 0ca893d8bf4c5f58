import type { Env } from '../env.js';
import { RewardWrapper } from '../wrapper.js';

/**
 * Clips every reward to `[minReward, maxReward]`, as Gymnasium's `ClipReward`.
 *
 * @example
 * ```ts
 * const env = new ClipReward(make('SQLEnv-v0'), -0.1, 0.15);
 * ```
 */
export class ClipReward<Obs = unknown, Act = unknown> extends RewardWrapper<Obs, Act> {
  constructor(
    env: Env<Obs, Act>,
    readonly minReward = -Infinity,
    readonly maxReward = Infinity,
  ) {
    super(env);
    if (!(minReward <= maxReward)) throw new RangeError(`ClipReward needs minReward <= maxReward, got ${minReward} and ${maxReward}`);
  }

  reward(reward: number): number {
    return Math.min(this.maxReward, Math.max(this.minReward, reward));
  }
}
