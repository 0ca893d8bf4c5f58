/**
 * One GRPO step: sample K episodes for each of B questions, turn episode rewards into
 * advantages, handle zero-variance groups (keep / drop / dynamic sampling), and run μ policy
 * updates of the clipped surrogate with KL and entropy terms.
 */
import type { Rng } from '../../gym/rng.js';
import type { TrainConfig } from '../config/schema.js';
import { computeAdvantages, episodeReward, isZeroVarianceGroup } from '../math/advantages.js';
import { policyLoss, type LossSequence, type PolicyLossMetrics } from '../math/policy-loss.js';
import { episodeMetrics, groupMetrics } from '../metrics/episode-metrics.js';
import type { AdamW } from '../optim/adamw.js';
import type { TrainablePolicy } from '../policy/trainable-policy.js';
import { turnAdvantages } from '../math/turn-advantages.js';
import { stepRewardsOf, tokenAdvantages, type Episode } from '../rollout/episode.js';
import type { EnvPool } from '../rollout/env-pool.js';
import { rolloutEpisodes } from '../rollout/multi-turn-rollout.js';
import type { RolloutTask } from '../rollout/rollout-task.js';
import { applyPolicyUpdate } from './policy-update.js';

/** Everything a GRPO step needs. The caller owns all of it. */
export interface GrpoStepContext<Obs> {
  policy: TrainablePolicy;
  task: RolloutTask<Obs>;
  pool: EnvPool<Obs>;
  /** Number of questions in the training split (indices are sampled from [0, n)). */
  questionCount: number;
  config: TrainConfig;
  optimizer: AdamW;
  rng: Rng;
}

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

/** What a GRPO step did. */
export interface GrpoStepResult {
  /** Metrics under the documented names (without kind/step/time). */
  metrics: Record<string, number>;
  episodes: ScoredEpisode[];
  /** Non-finite entries when the update was skipped. */
  skippedBecause: string[];
  /** Tokens generated + scored, for throughput. */
  tokens: number;
}

interface Group {
  episodes: Episode[];
  rewards: number[];
}

async function sampleGroups<Obs>(ctx: GrpoStepContext<Obs>, questions: number): Promise<Group[]> {
  const k = ctx.config.rollout.numGenerations;
  const envs = ctx.pool.take(questions * k);
  const jobs = [];
  for (let q = 0; q < questions; q++) {
    const index = ctx.rng.int(ctx.questionCount);
    const spec = ctx.task.episodeSpec?.(index, ctx.config.env.trainSplit) ?? { seed: index };
    for (let j = 0; j < k; j++) jobs.push({ env: envs[q * k + j]!, spec, group: q });
  }
  const episodes = await rolloutEpisodes(ctx.policy, ctx.task, jobs, ctx.config.rollout, ctx.rng);
  const groups: Group[] = [];
  for (let q = 0; q < questions; q++) {
    const eps = episodes.slice(q * k, (q + 1) * k);
    groups.push({ episodes: eps, rewards: eps.map((e) => episodeReward(stepRewardsOf(e), ctx.config.grpo.rewardMode)) });
  }
  return groups;
}

/**
 * The advantage of every trained episode: one number (credit 'episode') or one per turn (credit
 * 'turn', from the step rewards: all of them under rewardMode 'sum', only the last under 'final').
 */
function creditOf(trainGroups: readonly Group[], cfg: TrainConfig): Map<Episode, number | number[]> {
  const out = new Map<Episode, number | number[]>();
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

function advantageOfTokens(episode: Episode, advantage: number | number[]): number | Float64Array {
  return typeof advantage === 'number' ? advantage : tokenAdvantages(episode, advantage);
}

/**
 * The completion-token budget L of one episode: `maxTurns × maxNewTokensPerTurn`, the most
 * tokens the policy can generate in an episode (prompt and tool-response tokens excluded). Dr.
 * GRPO's `constant` aggregation divides the batch's summed token losses by (sequences × L); L is
 * a constant of the configuration, never the sampled lengths, so long and short answers weigh
 * the same per token.
 *
 * @example
 * ```ts
 * completionTokenBudget({ maxTurns: 6, maxNewTokensPerTurn: 96 }); // 576
 * ```
 */
export function completionTokenBudget(rollout: { maxTurns: number; maxNewTokensPerTurn: number }): number {
  return rollout.maxTurns * rollout.maxNewTokensPerTurn;
}

/**
 * Runs one GRPO step and returns its metrics and scored episodes.
 *
 * @example
 * ```ts
 * const r = await grpoStep(ctx, learningRateAt(step - 1, schedule));
 * r.metrics.reward; r.metrics.frac_reward_zero_std;
 * ```
 */
export async function grpoStep<Obs>(ctx: GrpoStepContext<Obs>, lr: number): Promise<GrpoStepResult> {
  const cfg = ctx.config;
  const want = cfg.rollout.questionsPerStep;
  const sampled: Group[] = [];
  let trainGroups: Group[] = [];
  let rounds = 0;
  for (;;) {
    const fresh = await sampleGroups(ctx, rounds === 0 ? want : want - trainGroups.length);
    sampled.push(...fresh);
    for (const g of fresh) {
      if (cfg.grpo.zeroVariance === 'keep' || !isZeroVarianceGroup(g.rewards)) trainGroups.push(g);
    }
    if (cfg.grpo.zeroVariance !== 'dynamic_sampling' || trainGroups.length >= want || rounds >= cfg.grpo.maxResampleRounds) break;
    rounds++;
  }
  trainGroups = trainGroups.slice(0, cfg.grpo.zeroVariance === 'dynamic_sampling' ? want : trainGroups.length);

  // Metrics describe the first round (what the policy does), not the resampled extra groups.
  const firstRound = sampled.slice(0, want);
  const metrics: Record<string, number> = {
    ...episodeMetrics(firstRound.flatMap((g) => g.episodes), firstRound.flatMap((g) => g.rewards)),
    ...groupMetrics(firstRound.map((g) => g.episodes), firstRound.map((g) => g.rewards)),
    groups_dropped: sampled.length - trainGroups.length,
    resample_rounds: rounds,
  };

  const advantageOf = creditOf(trainGroups, cfg);
  const scored: ScoredEpisode[] = sampled.flatMap((g) =>
    g.episodes.map((e, j) => {
      const a = advantageOf.get(e);
      if (a === undefined || typeof a === 'number') return { episode: e, reward: g.rewards[j]!, advantage: a };
      return { episode: e, reward: g.rewards[j]!, advantage: a.reduce((x, y) => x + y, 0) / Math.max(1, a.length), turnAdvantages: a };
    }),
  );
  const allAdvantages = [...advantageOf.values()].flatMap((a) => (typeof a === 'number' ? [a] : a));
  metrics['advantage_abs_mean'] = allAdvantages.length ? allAdvantages.reduce((a, b) => a + Math.abs(b), 0) / allAdvantages.length : 0;

  const trainEpisodes = trainGroups.flatMap((g) => g.episodes);
  let tokens = sampled.flatMap((g) => g.episodes).reduce((a, e) => a + e.generatedTokens, 0);
  const sequences = trainEpisodes.map((e) => e.tokens);
  const masks = trainEpisodes.map((e) => (cfg.rollout.maskTruncated && e.truncatedByTokens ? e.mask.map(() => 0) : e.mask));
  let skippedBecause: string[] = [];
  if (sequences.length > 0 && masks.some((m) => m.some((v) => v > 0))) {
    const loss = cfg.grpo.loss;
    const reference = loss.beta > 0 ? await ctx.policy.score(sequences, { reference: true }) : undefined;
    let old: Float32Array[] | undefined;
    let lossMetrics: PolicyLossMetrics | undefined;
    let lastLoss = 0;
    let gradNorm = 0;
    // Per-token advantages are fixed for the batch: spread them once, not on every μ-iteration.
    const lossAdvantages = trainEpisodes.map((e) => advantageOfTokens(e, advantageOf.get(e)!));
    for (let iteration = 0; iteration < cfg.grpo.muIterations; iteration++) {
      const scores = await ctx.policy.score(sequences, { entropy: true });
      tokens += sequences.reduce((a, s) => a + s.length, 0);
      if (loss.entropyCoef > 0 && scores.some((s) => !s.entropies)) {
        throw new Error(
          `grpo.loss.entropyCoef is ${loss.entropyCoef} but this policy backend returns no entropies, so the bonus would do nothing: ` +
            'set grpo.loss.entropyCoef to 0, or use a backend whose score() returns entropies.',
        );
      }
      old ??= scores.map((s) => s.logprobs);
      const lossInput: LossSequence[] = trainEpisodes.map((e, i) => ({
        logprobs: scores[i]!.logprobs,
        oldLogprobs: old![i]!,
        mask: masks[i]!,
        advantage: lossAdvantages[i]!,
        ...(reference ? { refLogprobs: reference[i]!.logprobs } : {}),
        ...(scores[i]!.entropies ? { entropies: scores[i]!.entropies } : {}),
      }));
      const result = policyLoss(lossInput, {
        epsilonLow: loss.epsilonLow,
        epsilonHigh: loss.epsilonHigh,
        beta: loss.beta,
        klEstimator: loss.klEstimator,
        entropyCoef: loss.entropyCoef,
        aggregation: loss.aggregation,
        importanceLevel: loss.importanceLevel,
        maxCompletionTokens: completionTokenBudget(cfg.rollout),
      });
      lossMetrics = result.metrics;
      if (Number.isNaN(lossMetrics.entropy)) {
        // Backends without entropies: −log p of the sampled tokens is an unbiased per-token
        // entropy estimate at temperature 1 (E[−log p(x)] = H).
        let sum = 0, count = 0;
        scores.forEach((s, i) => masks[i]!.forEach((m, t) => {
          if (m > 0) { sum -= s.logprobs[t]!; count++; }
        }));
        lossMetrics = { ...lossMetrics, entropy: count ? sum / count : Number.NaN };
      }
      lastLoss = result.loss;
      const update = await applyPolicyUpdate(ctx.policy, ctx.optimizer, sequences, result.logprobGrads, loss.entropyCoef > 0 ? result.entropyGrads : undefined, {
        loss: result.loss,
        lr,
        maxGradNorm: cfg.optim.maxGradNorm,
        microBatches: cfg.optim.gradAccumulation,
      });
      gradNorm = update.gradNorm;
      if (update.nonFinite.length > 0) {
        skippedBecause = update.nonFinite;
        break;
      }
    }
    metrics['loss'] = lastLoss;
    metrics['grad_norm'] = gradNorm;
    if (lossMetrics) {
      metrics['kl'] = lossMetrics.kl;
      metrics['entropy'] = lossMetrics.entropy;
      metrics['clip_ratio/low_mean'] = lossMetrics.clipRatioLow;
      metrics['clip_ratio/high_mean'] = lossMetrics.clipRatioHigh;
      metrics['clip_ratio/region_mean'] = lossMetrics.clipRatioRegion;
    }
  }
  metrics['learning_rate'] = lr;
  metrics['skipped'] = skippedBecause.length > 0 ? 1 : 0;
  return { metrics, episodes: scored, skippedBecause, tokens };
}
