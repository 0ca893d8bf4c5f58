import type { RewardConfig } from './reward-config.js';

/** The three parts of a step's reward, reported as `info.reward_components`. */
export interface RewardComponents {
  operational: number;
  progress: number;
  correctness: number;
}

/** What happened in one step, as far as the reward is concerned. */
export interface StepOutcome {
  /** The action parsed and ran without error. */
  ran: boolean;
  /** It showed a table or a result not seen before in the episode. */
  newInfo: boolean;
  /** It is identical to an earlier action of the episode. */
  repeated: boolean;
  /** Φ before and after the step (equal unless a query succeeded). */
  phiBefore: number;
  phiAfter: number;
  /** The terminal event of the step, if any. */
  terminal?: 'correct' | 'wrong' | 'out_of_budget';
}

/**
 * One step's reward components from its outcome (pure; see {@link RewardConfig} for the math).
 *
 * @example
 * ```ts
 * stepReward({ ran: true, newInfo: true, repeated: false, phiBefore: 0, phiAfter: 0.5 }, DEFAULT_REWARD_CONFIG);
 * // → { operational: 0.01, progress: 0.075, correctness: 0 }
 * ```
 */
export function stepReward(outcome: StepOutcome, config: RewardConfig): RewardComponents {
  const raw =
    (outcome.ran ? config.execOk : 0) + (outcome.newInfo ? config.newInfo : 0) - (outcome.repeated ? config.repeat : 0) - config.stepCost;
  const [lo, hi] = config.operationalClip;
  const operational = roundReward(Math.min(hi, Math.max(lo, raw)));
  const progress = roundReward(config.progressScale * (outcome.phiAfter - outcome.phiBefore));
  const correctness =
    outcome.terminal === 'correct' ? config.correct : outcome.terminal === 'wrong' ? config.wrong : outcome.terminal === 'out_of_budget' ? -config.outOfBudgetPenalty : 0;
  return { operational, progress, correctness };
}

/**
 * The reward of a step taken after the episode ended.
 *
 * @example
 * ```ts
 * afterEndReward(DEFAULT_REWARD_CONFIG); // { operational: -0.1, progress: 0, correctness: 0 }
 * ```
 */
export function afterEndReward(config: RewardConfig): RewardComponents {
  return { operational: -config.afterEndPenalty, progress: 0, correctness: 0 };
}

/**
 * The scalar reward: the sum of the components.
 *
 * @example
 * ```ts
 * totalReward({ operational: 0.01, progress: 0.15, correctness: 1 }); // 1.16
 * ```
 */
export function totalReward(components: RewardComponents): number {
  return roundReward(components.operational + components.progress + components.correctness);
}

/** Round away float dust (0.1 + 0.2) so rewards print and compare cleanly; 1e-12 is far below any constant. */
function roundReward(x: number): number {
  return Math.round(x * 1e12) / 1e12;
}
