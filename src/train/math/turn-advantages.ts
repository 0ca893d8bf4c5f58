/**
 * Turn-level credit assignment for multi-turn episodes.
 *
 * Episode-level GRPO gives every token of an episode the same advantage, so a good first turn
 * (a query that returned the gold result) is pushed down whenever a later turn spoils the
 * episode (the answer did not use that result). Turn-level credit instead scores each assistant
 * turn by its discounted reward-to-go and compares it with the same turn of the other episodes
 * sampled for the question — a critic-free, group-relative baseline per turn, in the spirit of
 * MT-GRPO (Zeng et al., 2025, "Reinforcing Multi-Turn Reasoning in LLM Agents via Turn-Level
 * Credit Assignment"). With discount 1 the first turn sees the whole episode return (as episode
 * GRPO does); with discount 0 every turn is judged by its own step reward only, which leans on
 * the env's dense shaping (progress toward the gold result) to score intermediate turns.
 * Optional state keys narrow each comparison to episodes that reached the turn in the same state
 * (e.g. after the same tool results): the group mean is then a Monte-Carlo estimate of that
 * state's value, so an answer is not blamed for the failed query before it.
 */
import { computeAdvantages, type AdvantageOptions } from './advantages.js';

/**
 * Discounted reward-to-go of every step: G_t = r_t + γ·G_{t+1}.
 *
 * @example
 * ```ts
 * rewardsToGo([0.1, 0, 1], 1);   // [1.1, 1, 1]
 * rewardsToGo([0.1, 0, 1], 0);   // [0.1, 0, 1]
 * rewardsToGo([0.1, 0, 1], 0.5); // [0.35, 0.5, 1]
 * ```
 */
export function rewardsToGo(stepRewards: readonly number[], discount: number): number[] {
  if (!(discount >= 0 && discount <= 1)) throw new RangeError(`turn discount must be in [0, 1], got ${discount}`);
  const out = new Array<number>(stepRewards.length);
  let g = 0;
  for (let t = stepRewards.length - 1; t >= 0; t--) {
    g = stepRewards[t]! + discount * g;
    out[t] = g;
  }
  return out;
}

/** How {@link turnAdvantages} scores turns. */
export interface TurnCreditOptions {
  /** γ of the reward-to-go, in [0, 1]. */
  discount: number;
  /**
   * Optional key of the state each turn was taken in (`stateKeys[g][k][t]`, same shape as the
   * rewards): turn t of an episode is then compared only with turn t of the group's episodes whose
   * key is equal — e.g. the tool results seen so far, so an answer that followed the gold result
   * competes with the other answers that followed it, not with answers to a failed query.
   */
  stateKeys?: readonly (readonly (readonly string[])[])[];
}

/**
 * Per-turn advantages for a batch of episode groups. `groups[g][k][t]` is the reward of turn t of
 * the k-th episode sampled for question g; the result has the same ragged shape.
 *
 * For each question and turn index t (and state key, when given), the reward-to-go of turn t of
 * every episode that reached turn t forms one "turn group", and all turn groups of the batch go
 * through {@link computeAdvantages} with `options` together (so batch-whitening estimators whiten
 * over every turn of the batch). A turn with nothing to compare it with (the only episode of its
 * turn group) gets advantage 0 under the centring estimators.
 *
 * @example
 * ```ts
 * // Two episodes: both queried (0.15 = gold result found vs 0.05), then answered (0 vs 1).
 * turnAdvantages([[[0.15, 0], [0.05, 1]]], { estimator: 'dr_grpo' }, { discount: 0 });
 * // → [[[0.05, -0.5], [-0.05, 0.5]]]: the good query is credited although its answer failed
 * ```
 */
export function turnAdvantages(
  groups: readonly (readonly (readonly number[])[])[],
  options: AdvantageOptions,
  credit: TurnCreditOptions,
): number[][][] {
  const togo = groups.map((g) => g.map((ep) => rewardsToGo(ep, credit.discount)));
  const keyOf = (g: number, k: number, t: number): string => {
    const key = credit.stateKeys?.[g]?.[k]?.[t];
    if (credit.stateKeys && key === undefined) throw new RangeError(`stateKeys[${g}][${k}][${t}] is missing: give one key per turn`);
    return key ?? '';
  };
  const turnGroups: number[][] = [];
  const where: { g: number; t: number; members: number[] }[] = [];
  togo.forEach((group, g) => {
    const turns = group.reduce((m, ep) => Math.max(m, ep.length), 0);
    for (let t = 0; t < turns; t++) {
      const byKey = new Map<string, number[]>();
      group.forEach((ep, k) => {
        if (ep.length <= t) return;
        const key = keyOf(g, k, t);
        const members = byKey.get(key);
        if (members) members.push(k);
        else byKey.set(key, [k]);
      });
      for (const members of byKey.values()) {
        turnGroups.push(members.map((k) => group[k]![t]!));
        where.push({ g, t, members });
      }
    }
  });
  const out = togo.map((group) => group.map((ep) => ep.map(() => 0)));
  if (turnGroups.length === 0) return out;
  const advantages = computeAdvantages(turnGroups, options);
  where.forEach(({ g, t, members }, i) => members.forEach((k, j) => (out[g]![k]![t] = advantages[i]![j]!)));
  return out;
}
