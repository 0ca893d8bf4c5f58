/**
 * One GRPO step, as four phases: sample K episodes for each of B questions (sample-groups),
 * describe them (step-metrics), turn rewards into advantages (credit-assignment), and run μ
 * policy updates of the clipped surrogate with KL and entropy terms (grpo-update).
 */
import type { PolicyOptimizer } from '../optim/policy-optimizer.js';
import { assignCredit, scoreEpisodes, type ScoredEpisode } from './credit-assignment.js';
import { grpoUpdate } from './grpo-update.js';
import { sampleGroups, type SamplingContext } from './sample-groups.js';
import { creditMetrics, samplingMetrics } from './step-metrics.js';

/** Everything a GRPO step needs. The caller owns all of it. */
export interface GrpoStepContext<Obs> extends SamplingContext<Obs> {
  optimizer: PolicyOptimizer;
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
  const groups = await sampleGroups(ctx);
  const credit = assignCredit(groups.train, cfg);
  const trainEpisodes = groups.train.flatMap((g) => g.episodes);
  const update = await grpoUpdate(ctx.policy, ctx.optimizer, trainEpisodes, credit, cfg, lr);
  const generated = groups.sampled.flatMap((g) => g.episodes).reduce((a, e) => a + e.generatedTokens, 0);
  return {
    metrics: {
      ...samplingMetrics(groups, cfg.rollout.questionsPerStep),
      ...creditMetrics(credit),
      ...update.metrics,
      learning_rate: lr,
      skipped: update.skippedBecause.length > 0 ? 1 : 0,
    },
    episodes: scoreEpisodes(groups.sampled, credit),
    skippedBecause: update.skippedBecause,
    tokens: generated + update.scoredTokens,
  };
}
