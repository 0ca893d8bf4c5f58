/**
 * The update phase of a GRPO step: μ iterations of the clipped surrogate (with the KL and
 * entropy terms) over the trained episodes, each scored by the current policy and applied
 * through one optimizer update. This is the part a faster backend replaces.
 */
import type { TrainConfig } from '../config/schema.js';
import { policyLoss, type LossSequence, type PolicyLossMetrics } from '../math/policy-loss.js';
import type { PolicyOptimizer } from '../optim/policy-optimizer.js';
import type { TrainablePolicy } from '../policy/trainable-policy.js';
import type { Episode } from '../rollout/episode.js';
import { TrainError } from '../train-error.js';
import { tokenCredit, type EpisodeCredit } from './credit-assignment.js';
import { applyPolicyUpdate } from './policy-update.js';

/** What the update did. */
export interface GrpoUpdateResult {
  /** loss, grad_norm and (when a loss was computed) kl, entropy and the clip ratios. */
  metrics: Record<string, number>;
  /** Non-finite entries when an update was skipped. */
  skippedBecause: string[];
  /** Tokens scored over all μ iterations, for throughput. */
  scoredTokens: number;
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
 * Runs the μ policy-gradient iterations over the trained episodes. Nothing happens (empty
 * metrics) when no episode has a trained token.
 *
 * @example
 * ```ts
 * const u = await grpoUpdate(policy, optimizer, trainEpisodes, assignCredit(groups.train, config), config, lr);
 * u.metrics.kl; u.skippedBecause;
 * ```
 */
export async function grpoUpdate(
  policy: TrainablePolicy,
  optimizer: PolicyOptimizer,
  episodes: readonly Episode[],
  credit: ReadonlyMap<Episode, EpisodeCredit>,
  cfg: TrainConfig,
  lr: number,
): Promise<GrpoUpdateResult> {
  const sequences = episodes.map((e) => e.tokens);
  const masks = episodes.map((e) => (cfg.rollout.maskTruncated && e.truncatedByTokens ? e.mask.map(() => 0) : e.mask));
  const metrics: Record<string, number> = {};
  let skippedBecause: string[] = [];
  let scoredTokens = 0;
  if (sequences.length === 0 || !masks.some((m) => m.some((v) => v > 0))) return { metrics, skippedBecause, scoredTokens };
  const loss = cfg.grpo.loss;
  const reference = loss.beta > 0 ? await policy.score(sequences, { reference: true }) : undefined;
  let old: Float32Array[] | undefined;
  let lossMetrics: PolicyLossMetrics | undefined;
  let lastLoss = 0;
  let gradNorm = 0;
  // Per-token advantages are fixed for the batch: spread them once, not on every μ-iteration.
  const lossAdvantages = episodes.map((e) => tokenCredit(e, credit.get(e)!));
  for (let iteration = 0; iteration < cfg.grpo.muIterations; iteration++) {
    const scores = await policy.score(sequences, { entropy: true });
    scoredTokens += sequences.reduce((a, s) => a + s.length, 0);
    if (loss.entropyCoef > 0 && scores.some((s) => !s.entropies)) {
      throw new TrainError(
        `grpo.loss.entropyCoef is ${loss.entropyCoef} but this policy backend returns no entropies, so the bonus would do nothing: ` +
          'set grpo.loss.entropyCoef to 0, or use a backend whose score() returns entropies.',
      );
    }
    old ??= scores.map((s) => s.logprobs);
    const lossInput: LossSequence[] = episodes.map((_, i) => ({
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
    const update = await applyPolicyUpdate(policy, optimizer, sequences, result.logprobGrads, loss.entropyCoef > 0 ? result.entropyGrads : undefined, {
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
  return { metrics, skippedBecause, scoredTokens };
}
