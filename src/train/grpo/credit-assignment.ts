/**
 * Credit assignment of a GRPO step: the advantage of every trained episode, from the group
 * rewards (credit 'episode') or from the step rewards turn by turn (credit 'turn').
 */
import type { TrainConfig } from '../config/schema.js';
import { computeAdvantages } from '../math/advantages.js';
import { turnAdvantages } from '../math/turn-advantages.js';
import { stepRewardsOf, tokenAdvantages, type Episode } from '../rollout/episode.js';
import type { Group } from './sample-groups.js';

/** An episode's advantage: one number (credit 'episode') or one per turn (credit 'turn'). */
export type EpisodeCredit = number | number[];

/**
 * An episode with the advantage it was trained with (undefined when its group was dropped). Under
 * `grpo.credit: 'turn'`, `turnAdvantages` holds each turn's advantage and `advantage` is their
 * mean over turns (what traces show).
 */
export interface ScoredEpisode {
  episode: Episode;
  reward: number;
  advantage: number | undefined;
  turnAdvantages?: number[];
}

/**
 * The advantage of every trained episode: one number (credit 'episode') or one per turn (credit
 * 'turn', from the step rewards: all of them under rewardMode 'sum', only the last under 'final').
 *
 * @example
 * ```ts
 * const credit = assignCredit(sampledGroups.train, config);
 * credit.get(episode); // 0.82, or [0.5, 1.1] under credit 'turn'
 * ```
 */
export function assignCredit(trainGroups: readonly Group[], cfg: TrainConfig): Map<Episode, EpisodeCredit> {
  const out = new Map<Episode, EpisodeCredit>();
  if (trainGroups.length === 0) return out;
  if (cfg.grpo.credit === 'episode') {
    const advantages = computeAdvantages(trainGroups.map((g) => g.rewards), cfg.grpo.advantage);
    trainGroups.forEach((g, i) => g.episodes.forEach((e, j) => out.set(e, advantages[i]![j]!)));
    return out;
  }
  const stepRewards = (e: Episode) => {
    const r = stepRewardsOf(e);
    return cfg.grpo.rewardMode === 'sum' ? r : r.map((v, t) => (t === r.length - 1 ? v : 0));
  };
  // The tool results an episode had seen when it took each turn: its state, as far as the env goes.
  const seenBefore = (e: Episode) => e.turns.map((_, t) => JSON.stringify(e.turns.slice(0, t).map((turn) => turn.result)));
  const perTurn = turnAdvantages(trainGroups.map((g) => g.episodes.map(stepRewards)), cfg.grpo.advantage, {
    discount: cfg.grpo.turnDiscount,
    ...(cfg.grpo.turnBaseline === 'observations' ? { stateKeys: trainGroups.map((g) => g.episodes.map(seenBefore)) } : {}),
  });
  trainGroups.forEach((g, i) => g.episodes.forEach((e, j) => out.set(e, perTurn[i]![j]!)));
  return out;
}

/**
 * The advantage the loss gives each token of an episode: the episode's number, or each turn's
 * advantage spread over that turn's tokens.
 *
 * @example
 * ```ts
 * tokenCredit(episode, 0.5); // 0.5
 * tokenCredit(episode, [0.5, -1]); // Float64Array, one entry per token
 * ```
 */
export function tokenCredit(episode: Episode, credit: EpisodeCredit): number | Float64Array {
  return typeof credit === 'number' ? credit : tokenAdvantages(episode, credit);
}

/**
 * Every sampled episode with its reward and the advantage it was trained with, for traces.
 *
 * @example
 * ```ts
 * const scored = scoreEpisodes(sampledGroups.sampled, assignCredit(sampledGroups.train, config));
 * ```
 */
export function scoreEpisodes(sampled: readonly Group[], credit: ReadonlyMap<Episode, EpisodeCredit>): ScoredEpisode[] {
  return sampled.flatMap((g) =>
    g.episodes.map((e, j) => {
      const a = credit.get(e);
      if (a === undefined || typeof a === 'number') return { episode: e, reward: g.rewards[j]!, advantage: a };
      return { episode: e, reward: g.rewards[j]!, advantage: a.reduce((x, y) => x + y, 0) / Math.max(1, a.length), turnAdvantages: a };
    }),
  );
}
