/**
 * The metrics a GRPO step reports about what it sampled and the credit it assigned (the update
 * adds its own: loss, gradient norm, KL, entropy, clip ratios).
 */
import { episodeMetrics, groupMetrics } from '../metrics/episode-metrics.js';
import type { Episode } from '../rollout/episode.js';
import type { EpisodeCredit } from './credit-assignment.js';
import type { SampledGroups } from './sample-groups.js';

/**
 * Episode and group metrics of the first round (what the policy does, not the resampled extra
 * groups), with how many groups were dropped and how many resampling rounds ran.
 *
 * @example
 * ```ts
 * samplingMetrics(groups, config.rollout.questionsPerStep).frac_reward_zero_std;
 * ```
 */
export function samplingMetrics(groups: SampledGroups, questionsPerStep: number): Record<string, number> {
  const firstRound = groups.sampled.slice(0, questionsPerStep);
  return {
    ...episodeMetrics(firstRound.flatMap((g) => g.episodes), firstRound.flatMap((g) => g.rewards)),
    ...groupMetrics(firstRound.map((g) => g.episodes), firstRound.map((g) => g.rewards)),
    groups_dropped: groups.sampled.length - groups.train.length,
    resample_rounds: groups.rounds,
  };
}

/**
 * The mean absolute advantage over every trained episode (every turn under credit 'turn').
 *
 * @example
 * ```ts
 * creditMetrics(assignCredit(groups.train, config)); // { advantage_abs_mean: 0.71 }
 * ```
 */
export function creditMetrics(credit: ReadonlyMap<Episode, EpisodeCredit>): Record<string, number> {
  const all = [...credit.values()].flatMap((a) => (typeof a === 'number' ? [a] : a));
  return { advantage_abs_mean: all.length ? all.reduce((a, b) => a + Math.abs(b), 0) / all.length : 0 };
}
