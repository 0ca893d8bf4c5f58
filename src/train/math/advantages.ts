import { TrainError } from '../train-error.js';

/**
 * Advantage estimators for group-sampled policy-gradient methods (GRPO and relatives).
 *
 * Every estimator takes the rewards of one batch arranged in groups — `groups[g][k]` is the
 * reward of the k-th completion sampled for prompt g — and returns advantages of the same shape.
 * They are pure functions so that their behaviour on hand-computed cases is pinned by unit tests.
 */

/** Which advantage estimator to use. See {@link computeAdvantages}. */
export type AdvantageEstimator = 'grpo' | 'dr_grpo' | 'rloo' | 'reinforce_pp' | 'reinforce_pp_baseline';

/** What the centred rewards are divided by: the group's std, the whole batch's std, or nothing. */
export type AdvantageScale = 'group' | 'batch' | 'none';

/**
 * `sample` divides by n − 1 (what TRL's `torch.std` does); `population` by n (NumPy's default).
 * With K = 2 and unequal rewards, group z-scores are then ±1/√2 (sample) or exactly ±1
 * (population), whatever the size of the reward gap.
 */
export type StdKind = 'sample' | 'population';

/** Options of {@link computeAdvantages}. */
export interface AdvantageOptions {
  estimator: AdvantageEstimator;
  /**
   * Scaling for the centring estimators (`grpo`, `dr_grpo`, `rloo`). Defaults: `grpo` → `group`,
   * `dr_grpo` → `none`, `rloo` → `none`. The REINFORCE++ estimators always whiten over the batch.
   */
  scale?: AdvantageScale;
  /** Standard-deviation convention (default `sample`). */
  std?: StdKind;
  /** Added to the std before dividing, so zero-variance groups give 0 rather than NaN (default 1e-4). */
  epsilon?: number;
  /** Clip advantages to [−clip, +clip] after scaling (default: no clipping). */
  clip?: number;
}

/**
 * The arithmetic mean; 0 for an empty list.
 *
 * @example
 * ```ts
 * mean([1, 2, 3]); // 2
 * ```
 */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/**
 * Standard deviation under the given convention. A single value has std 0 under both conventions
 * (the sample std would be 0/0; no spread is the useful answer for advantage scaling).
 *
 * @example
 * ```ts
 * standardDeviation([1, 0], 'population'); // 0.5
 * ```
 */
export function standardDeviation(values: readonly number[], kind: StdKind): number {
  const n = values.length;
  if (n < 2) return 0;
  const m = mean(values);
  let ss = 0;
  for (const v of values) ss += (v - m) * (v - m);
  return Math.sqrt(ss / (kind === 'sample' ? n - 1 : n));
}

/** Thrown for rewards that cannot be turned into advantages (empty or ragged input, non-finite values). */
export class AdvantageInputError extends TrainError {
  constructor(message: string) {
    super(message);
    this.name = 'AdvantageInputError';
  }
}

function validate(groups: readonly (readonly number[])[]): void {
  if (groups.length === 0) throw new AdvantageInputError('no reward groups given: sample at least one prompt');
  groups.forEach((g, i) => {
    if (g.length === 0) throw new AdvantageInputError(`reward group ${i} is empty: every prompt needs K ≥ 1 completions`);
    g.forEach((r, k) => {
      if (!Number.isFinite(r)) {
        throw new AdvantageInputError(`reward [${i}][${k}] is ${r}: fix the reward function (NaN/Inf rewards cannot be scaled)`);
      }
    });
  });
}

function centreInGroup(groups: readonly (readonly number[])[], leaveOneOut: boolean): number[][] {
  return groups.map((g) => {
    const k = g.length;
    const sum = g.reduce((a, b) => a + b, 0);
    if (!leaveOneOut) {
      const m = sum / k;
      return g.map((r) => r - m);
    }
    // RLOO: the baseline of sample i is the mean of the other K−1 rewards. A group of one has no
    // "others"; its advantage is 0 (no signal), which matches the zero-variance convention.
    if (k === 1) return [0];
    return g.map((r) => r - (sum - r) / (k - 1));
  });
}

/**
 * `value / (s + epsilon)`, except that a spread of zero (up to rounding, relative to the values'
 * magnitude) means no signal: 0, never NaN, and never rounding noise blown up to ±1 when
 * `epsilon` is 0.
 */
function divideBySpread(value: number, s: number, epsilon: number, magnitude: number): number {
  if (s <= 1e-12 * Math.max(1, magnitude)) return epsilon > 0 ? value / (s + epsilon) : 0;
  return value / (s + epsilon);
}

function maxAbs(values: readonly number[]): number {
  let m = 0;
  for (const v of values) m = Math.max(m, Math.abs(v));
  return m;
}

function scaleCentred(
  centred: number[][],
  rawGroups: readonly (readonly number[])[],
  scale: AdvantageScale,
  std: StdKind,
  epsilon: number,
): number[][] {
  if (scale === 'none') return centred;
  if (scale === 'group') {
    return centred.map((g, i) => {
      const s = standardDeviation(rawGroups[i]!, std);
      const magnitude = maxAbs(rawGroups[i]!);
      return g.map((a) => divideBySpread(a, s, epsilon, magnitude));
    });
  }
  const flat = rawGroups.flat();
  const s = standardDeviation(flat, std);
  const magnitude = maxAbs(flat);
  return centred.map((g) => g.map((a) => divideBySpread(a, s, epsilon, magnitude)));
}

function whitenOverBatch(values: number[][], std: StdKind, epsilon: number): number[][] {
  const flat = values.flat();
  const m = mean(flat);
  const s = standardDeviation(flat, std);
  const magnitude = maxAbs(flat);
  return values.map((g) => g.map((v) => divideBySpread(v - m, s, epsilon, magnitude)));
}

/**
 * Advantages for a batch of reward groups.
 *
 * - `grpo`: (r − mean_group) / (std + ε) with the default `scale: 'group'`.
 * - `dr_grpo`: r − mean_group (no std division, removing the difficulty bias).
 * - `rloo`: r − mean of the other K − 1 rewards of the group.
 * - `reinforce_pp`: (r − mean_batch) / (std_batch + ε) — no group baseline.
 * - `reinforce_pp_baseline`: subtract the group mean, then whiten the result over the batch.
 *
 * @example
 * ```ts
 * computeAdvantages([[1, 0, 0, 1]], { estimator: 'grpo', std: 'population', epsilon: 0 });
 * // → [[1, -1, -1, 1]]
 * computeAdvantages([[1, 0, 0]], { estimator: 'rloo' }); // → [[1, -0.5, -0.5]]
 * ```
 */
export function computeAdvantages(groups: readonly (readonly number[])[], options: AdvantageOptions): number[][] {
  validate(groups);
  const std = options.std ?? 'sample';
  const epsilon = options.epsilon ?? 1e-4;
  let advantages: number[][];
  switch (options.estimator) {
    case 'grpo':
      advantages = scaleCentred(centreInGroup(groups, false), groups, options.scale ?? 'group', std, epsilon);
      break;
    case 'dr_grpo':
      advantages = scaleCentred(centreInGroup(groups, false), groups, options.scale ?? 'none', std, epsilon);
      break;
    case 'rloo':
      advantages = scaleCentred(centreInGroup(groups, true), groups, options.scale ?? 'none', std, epsilon);
      break;
    case 'reinforce_pp':
      advantages = whitenOverBatch(groups.map((g) => [...g]), std, epsilon);
      break;
    case 'reinforce_pp_baseline':
      advantages = whitenOverBatch(centreInGroup(groups, false), std, epsilon);
      break;
    default: {
      const never: never = options.estimator;
      throw new AdvantageInputError(`unknown advantage estimator ${String(never)}`);
    }
  }
  const clip = options.clip;
  if (clip !== undefined) {
    if (!(clip > 0)) throw new AdvantageInputError(`advantage clip must be > 0, got ${clip}`);
    advantages = advantages.map((g) => g.map((a) => Math.min(clip, Math.max(-clip, a))));
  }
  return advantages;
}

/** How an episode's step rewards become the one scalar an advantage estimator sees. */
export type EpisodeRewardMode = 'final' | 'sum';

/**
 * The scalar return of a multi-turn episode: the last step's reward (`final`, i.e. only the
 * terminal correctness signal) or the sum of all step rewards (`sum`, keeping the dense shaping).
 *
 * @example
 * ```ts
 * episodeReward([0.02, 0.03, 1], 'sum');   // 1.05
 * episodeReward([0.02, 0.03, 1], 'final'); // 1
 * ```
 */
export function episodeReward(stepRewards: readonly number[], mode: EpisodeRewardMode): number {
  if (stepRewards.length === 0) return 0;
  if (mode === 'final') return stepRewards[stepRewards.length - 1]!;
  return stepRewards.reduce((a, b) => a + b, 0);
}

/**
 * True when every reward in the group is equal (within `tolerance`): the group gives no GRPO signal.
 *
 * @example
 * ```ts
 * isZeroVarianceGroup([0, 0, 0]); // true
 * ```
 */
export function isZeroVarianceGroup(group: readonly number[], tolerance = 1e-9): boolean {
  if (group.length === 0) return true;
  const first = group[0]!;
  return group.every((r) => Math.abs(r - first) <= tolerance);
}
