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
  /** It is identical to an earlier action of the episode. */
  repeated: boolean;
  /** Φ before and after the step (equal unless a query succeeded; 0 after the step that ends the episode). */
  phiBefore: number;
  phiAfter: number;
  /**
   * Distinct tables and results shown before and after the step (the novelty potential counts
   * them; 0 after the step that ends the episode).
   */
  seenBefore: number;
  seenAfter: number;
  /** The terminal event of the step, if any. */
  terminal?: 'correct' | 'wrong' | 'out_of_budget';
}

/**
 * One step's reward components from its outcome (pure; see {@link RewardConfig} for the math).
 * `progress` is potential-based shaping — closeness to the gold result (Φ) and novelty (things
 * shown) — and both potentials are 0 once the episode has ended, so progress sums to zero over
 * every episode: shaping moves credit between steps and never pays a policy that fails.
 *
 * @example
 * ```ts
 * stepReward({ ran: true, repeated: false, phiBefore: 0, phiAfter: 0.5, seenBefore: 1, seenAfter: 2 }, DEFAULT_REWARD_CONFIG);
 * // → { operational: 0, progress: 0.085, correctness: 0 }
 * ```
 */
export function stepReward(outcome: StepOutcome, config: RewardConfig): RewardComponents {
  const raw = (outcome.ran ? config.execOk : 0) - (outcome.repeated ? config.repeat : 0) - config.stepCost;
  const [lo, hi] = config.operationalClip;
  const operational = roundReward(Math.min(hi, Math.max(lo, raw)));
  const progress = roundReward(
    config.progressScale * (outcome.phiAfter - outcome.phiBefore) + config.newInfo * (outcome.seenAfter - outcome.seenBefore),
  );
  const correctness =
    outcome.terminal === 'correct' ? config.correct : outcome.terminal === 'wrong' ? config.wrong : outcome.terminal === 'out_of_budget' ? -config.outOfBudgetPenalty : 0;
  return { operational, progress, correctness };
}

/**
 * The shaping not yet settled: what `progress` has paid so far and would take back if the episode
 * ended now (progressScale · Φ + newInfo · N; 0 once the episode is over). SQLEnv reports it as
 * `info.shaping_potential`, so a trainer that cuts an episode before the env ends it can settle it
 * and keep the shaping summing to zero.
 *
 * @example
 * ```ts
 * unsettledShaping(0.5, 2, DEFAULT_REWARD_CONFIG); // 0.15 · 0.5 + 0.01 · 2 = 0.095
 * ```
 */
export function unsettledShaping(phi: number, seen: number, config: RewardConfig): number {
  return roundReward(config.progressScale * phi + config.newInfo * seen);
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
