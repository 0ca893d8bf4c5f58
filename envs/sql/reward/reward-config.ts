/** Weights of the three parts of the progress potential Φ; they are normalised to sum to 1. */
export interface PotentialWeights {
  cardinality: number;
  valueOverlap: number;
  numericRange: number;
}

/**
 * Every constant of SQLEnv's reward, in one place. Defaults ({@link DEFAULT_REWARD_CONFIG}) are the
 * seed project's final constants.
 *
 * Per step: `reward = clip(operational, operationalClip) + progress + correctness`, where
 * - `operational = execOk·[ran] − repeat·[identical earlier action] − stepCost`;
 * - `progress = progressScale · (Φ(s′) − Φ(s)) + newInfo · (N(s′) − N(s))`: potential-based shaping,
 *   Φ ∈ [0, 1] the potential of the latest successful query's result against the gold result (0
 *   before any query), N the number of distinct tables and results shown; both are 0 once the
 *   episode has ended, so progress sums to zero over every episode;
 * - `correctness = correct | wrong` on `answer`, `−outOfBudgetPenalty` when the step budget runs
 *   out, 0 otherwise.
 */
export interface RewardConfig {
  /** Added when the action ran without error. Seed: 0.02. */
  execOk: number;
  /**
   * Novelty: paid the first time a table is described or sampled, or a query result is seen,
   * as potential-based shaping (returned when the episode ends, so exploring alone never pays).
   * Seed: 0.01.
   */
  newInfo: number;
  /** Subtracted for an action identical to an earlier one in the episode. Seed: 0.03. */
  repeat: number;
  /** Subtracted on every step. Seed: 0.02. */
  stepCost: number;
  /**
   * Bounds of the operational part of each step. Seed: [−0.10, +0.15]. The seed clipped the whole
   * step; here the progress term is left out of the clip because clipping it breaks telescoping:
   * alternating a good and a bad query would then earn `+scale` up and lose only the clip bound
   * down, a farmable loop. Progress is bounded by ±progressScale anyway.
   */
  operationalClip: readonly [min: number, max: number];
  /** Multiplier of the potential difference. Seed: 0.15. */
  progressScale: number;
  /** Weights of Φ's parts. Seed: cardinality 0.25, value overlap 0.50, numeric range 0.25. */
  potentialWeights: PotentialWeights;
  /** Terminal reward of a correct answer. Seed: 1. */
  correct: number;
  /** Terminal reward of a wrong answer. Seed: 0. */
  wrong: number;
  /** Subtracted when the step budget runs out without an answer. Seed: 0. */
  outOfBudgetPenalty: number;
  /**
   * Subtracted for each step taken after the episode ended (the env answers `episode_over`).
   * The seed needed 0.1 to stop policies from calling tools after answering.
   */
  afterEndPenalty: number;
}

/**
 * The seed project's constants (reference-facts §2), with the clip applied to the operational part.
 *
 * @example
 * ```ts
 * make('SQLEnv-v0', { reward: { outOfBudgetPenalty: 0.5 } }); // override one constant
 * ```
 */
export const DEFAULT_REWARD_CONFIG: Readonly<RewardConfig> = Object.freeze({
  execOk: 0.02,
  newInfo: 0.01,
  repeat: 0.03,
  stepCost: 0.02,
  operationalClip: Object.freeze([-0.1, 0.15] as const),
  progressScale: 0.15,
  potentialWeights: Object.freeze({ cardinality: 0.25, valueOverlap: 0.5, numericRange: 0.25 }),
  correct: 1,
  wrong: 0,
  outOfBudgetPenalty: 0,
  afterEndPenalty: 0.1,
});

/**
 * Merge overrides into the defaults (nested `potentialWeights` merged field by field).
 *
 * @example
 * ```ts
 * resolveRewardConfig({ stepCost: 0 }).execOk; // 0.02
 * ```
 */
export function resolveRewardConfig(overrides: Partial<RewardConfig> = {}): RewardConfig {
  return {
    ...DEFAULT_REWARD_CONFIG,
    ...overrides,
    potentialWeights: { ...DEFAULT_REWARD_CONFIG.potentialWeights, ...overrides.potentialWeights },
  };
}
