/**
 * The update phase of a GRPO step: μ iterations of the clipped surrogate (with the KL and
 * entropy terms) over the trained episodes, each scored by the current policy and applied
 * through one optimizer update. This is the part a faster backend replaces.
 */
import type { TrainConfig } from '../config/schema.js';
import { policyLoss, type PolicyLossMetrics } from '../math/policy-loss.js';
import { samplerCorrectionWeights, type SamplerCorrectionResult } from '../math/sampler-correction.js';
import type { PolicyOptimizer } from '../optim/policy-optimizer.js';
import type { TokenScores, TrainablePolicy } from '../policy/trainable-policy.js';
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
  // The K episodes of a group share their first prompt: backends may compute it once, and the
  // loss masks the prompt, so its own scores are not needed (completionOnly).
  const promptLengths = episodes.map((e) => e.promptLength);
  // The samples were drawn from π at the rollout temperature T, so the objective's log-probs —
  // current, old and reference alike — are log-softmax(logits / T) (as in TRL): the gradient of
  // the policy that sampled them, and a KL between the two tempered distributions.
  const temperature = cfg.rollout.temperature;
  const reference = loss.beta > 0 ? await policy.score(sequences, { reference: true, promptLengths, completionOnly: true, temperature }) : undefined;
  // When the rollouts were drawn from the policy itself at T (no decoding guide in training, no
  // top-p), their sampling log-probs are π_old's, so at μ = 1 (no update between sampling and this
  // one) they are the old and the current log-probs alike (ratios 1): no scoring pass is needed,
  // and the backward pass reports the log-probs and entropies the metrics read. The entropy bonus
  // needs the entropies before the backward, so it keeps the scoring pass. Any other sampler (a
  // guide's logit biases, top-p renormalisation) drew from q ≠ π: the loss scores the tokens under
  // π for the old log-probs and weighs each by π_old/q (`grpo.loss.samplerCorrection`), so the
  // update follows the gradient of π's objective rather than q's.
  const samplerIsPolicy = cfg.rollout.guidedDecoding !== 'always' && cfg.rollout.topP === 1;
  const allSampled = episodes.every((e) => e.samplingLogprobs?.length === e.tokens.length);
  const sampled =
    samplerIsPolicy && cfg.grpo.muIterations === 1 && loss.entropyCoef === 0 && allSampled
      ? episodes.map((e): TokenScores => ({ logprobs: Float32Array.from(e.samplingLogprobs!) }))
      : undefined;
  const correctionOptions = { mode: loss.samplerCorrection, level: loss.samplerCorrectionLevel, cap: loss.samplerCap };
  const correctionOf = (oldLogprobs: readonly ArrayLike<number>[]) =>
    samplerCorrectionWeights(
      episodes.map((e, i) => ({ oldLogprobs: oldLogprobs[i]!, mask: masks[i]!, ...(e.samplingLogprobs?.length === e.tokens.length ? { samplingLogprobs: e.samplingLogprobs } : {}) })),
      correctionOptions,
    );
  let correction: SamplerCorrectionResult | undefined;
  let old: Float32Array[] | undefined;
  let lossMetrics: PolicyLossMetrics | undefined;
  let lastLoss = 0;
  let gradNorm = 0;
  // Per-token advantages are fixed for the batch: spread them once, not on every μ-iteration.
  const lossAdvantages = episodes.map((e) => tokenCredit(e, credit.get(e)!));
  const lossOf = (scores: readonly TokenScores[], oldLogprobs: readonly Float32Array[], samplerWeights?: readonly Float64Array[]) => {
    const result = policyLoss(
      episodes.map((_, i) => ({
        logprobs: scores[i]!.logprobs,
        oldLogprobs: oldLogprobs[i]!,
        mask: masks[i]!,
        advantage: lossAdvantages[i]!,
        ...(samplerWeights ? { samplerWeights: samplerWeights[i]! } : {}),
        ...(reference ? { refLogprobs: reference[i]!.logprobs } : {}),
        ...(scores[i]!.entropies ? { entropies: scores[i]!.entropies } : {}),
      })),
      {
        epsilonLow: loss.epsilonLow,
        epsilonHigh: loss.epsilonHigh,
        beta: loss.beta,
        klEstimator: loss.klEstimator,
        entropyCoef: loss.entropyCoef,
        aggregation: loss.aggregation,
        importanceLevel: loss.importanceLevel,
        maxCompletionTokens: completionTokenBudget(cfg.rollout),
      },
    );
    if (!Number.isNaN(result.metrics.entropy)) return result;
    // Backends without entropies: −log p_T of the tokens sampled at T is an unbiased per-token
    // estimate of the tempered distribution's entropy (E[−log p(x)] = H).
    let sum = 0, count = 0;
    scores.forEach((s, i) => masks[i]!.forEach((m, t) => {
      if (m > 0) { sum -= s.logprobs[t]!; count++; }
    }));
    return { ...result, metrics: { ...result.metrics, entropy: count ? sum / count : Number.NaN } };
  };
  for (let iteration = 0; iteration < cfg.grpo.muIterations; iteration++) {
    const scores = sampled ?? (await policy.score(sequences, { entropy: true, promptLengths, completionOnly: true, temperature }));
    scoredTokens += sequences.reduce((a, s) => a + s.length, 0);
    if (loss.entropyCoef > 0 && scores.some((s) => !s.entropies)) {
      throw new TrainError(
        `grpo.loss.entropyCoef is ${loss.entropyCoef} but this policy backend returns no entropies, so the bonus would do nothing: ` +
          'set grpo.loss.entropyCoef to 0, or use a backend whose score() returns entropies.',
      );
    }
    old ??= scores.map((s) => s.logprobs);
    // The weights are constants of the batch: π_old against q, computed once. When the policy
    // sampled itself they would be 1 but for float rounding: only the diagnostics are kept.
    if (!sampled) correction ??= correctionOf(old);
    const result = lossOf(scores, old, samplerIsPolicy ? undefined : correction?.weights);
    lossMetrics = result.metrics;
    lastLoss = result.loss;
    const update = await applyPolicyUpdate(policy, optimizer, sequences, result.logprobGrads, loss.entropyCoef > 0 ? result.entropyGrads : undefined, {
      loss: result.loss,
      lr,
      maxGradNorm: cfg.optim.maxGradNorm,
      microBatches: cfg.optim.gradAccumulation,
      ...(sampled ? { scores: { entropy: true } } : {}),
      promptLengths,
      completionOnly: true,
      temperature,
    });
    gradNorm = update.gradNorm;
    if (sampled && update.scores && update.nonFinite.length === 0) {
      // The metrics of the with-pass path: the loss at the backward pass's own log-probs (ratios 1).
      const measured = lossOf(update.scores, update.scores.map((s) => s.logprobs));
      lossMetrics = measured.metrics;
      lastLoss = measured.loss;
      // The sampler was the policy: the diagnostics measure how far the backward pass's log-probs
      // are from the sampler's (float rounding, device precision).
      correction = correctionOf(update.scores.map((s) => s.logprobs));
    }
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
  if (correction && correction.metrics.tokens > 0) {
    metrics['sampling/sampling_logp_difference/mean'] = correction.metrics.logpDifferenceMean;
    metrics['sampling/sampling_logp_difference/max'] = correction.metrics.logpDifferenceMax;
    metrics['sampling/importance_sampling_ratio/min'] = samplerIsPolicy ? 1 : correction.metrics.weightMin;
    metrics['sampling/importance_sampling_ratio/mean'] = samplerIsPolicy ? 1 : correction.metrics.weightMean;
    metrics['sampling/importance_sampling_ratio/max'] = samplerIsPolicy ? 1 : correction.metrics.weightMax;
    metrics['sampling/corrected_share'] = samplerIsPolicy ? 0 : correction.metrics.correctedShare;
  }
  return { metrics, skippedBecause, scoredTokens };
}
