/**
 * The sampling phase of a GRPO step: K episodes for each of B questions, with zero-variance
 * groups kept, dropped, or replaced by fresh ones (dynamic sampling).
 */
import type { Rng } from '../../base/rng.js';
import { grpoTrainSplit, type TrainConfig } from '../config/schema.js';
import { episodeReward, isZeroVarianceGroup } from '../math/advantages.js';
import type { TrainablePolicy } from '../policy/trainable-policy.js';
import { stepRewardsOf, type Episode } from '../rollout/episode.js';
import type { EnvPool } from '../rollout/env-pool.js';
import { rolloutEpisodes } from '../rollout/multi-turn-rollout.js';
import type { RolloutTask } from '../rollout/rollout-task.js';

/** What sampling needs: the policy, the task and its environments, and where questions come from. */
export interface SamplingContext<Obs> {
  policy: TrainablePolicy;
  task: RolloutTask<Obs>;
  pool: EnvPool<Obs>;
  /** Number of questions in GRPO's training split (`grpoTrainSplit`; indices are sampled from [firstQuestion, n)). */
  questionCount: number;
  /** The first index GRPO may sample (`grpo.questions: 'beyond_sft'` skips SFT's questions); 0 when absent. */
  firstQuestion?: number;
  config: TrainConfig;
  rng: Rng;
}

/** The K episodes of one question and their episode rewards. */
export interface Group {
  episodes: Episode[];
  rewards: number[];
}

/** The groups a step sampled, and those it trains on. */
export interface SampledGroups {
  /** Every group sampled, first round first (`questionsPerStep` of them), then resampled ones. */
  sampled: Group[];
  /** The groups the update learns from (zero-variance ones dropped unless `zeroVariance: 'keep'`). */
  train: Group[];
  /** Resampling rounds after the first (dynamic sampling). */
  rounds: number;
}

async function sampleRound<Obs>(ctx: SamplingContext<Obs>, questions: number): Promise<Group[]> {
  const k = ctx.config.rollout.numGenerations;
  const envs = ctx.pool.take(questions * k);
  const jobs = [];
  const first = ctx.firstQuestion ?? 0;
  const split = grpoTrainSplit(ctx.config);
  for (let q = 0; q < questions; q++) {
    const index = first + ctx.rng.int(ctx.questionCount - first);
    const spec = ctx.task.episodeSpec?.(index, split) ?? { seed: index };
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
 * Samples `rollout.questionsPerStep` groups; under `grpo.zeroVariance: 'dynamic_sampling'`,
 * resamples fresh questions for the zero-variance groups, up to `grpo.maxResampleRounds` rounds.
 *
 * @example
 * ```ts
 * const { sampled, train, rounds } = await sampleGroups({ policy, task, pool, questionCount, config, rng });
 * ```
 */
export async function sampleGroups<Obs>(ctx: SamplingContext<Obs>): Promise<SampledGroups> {
  const cfg = ctx.config;
  const want = cfg.rollout.questionsPerStep;
  const sampled: Group[] = [];
  let train: Group[] = [];
  let rounds = 0;
  for (;;) {
    const fresh = await sampleRound(ctx, rounds === 0 ? want : want - train.length);
    sampled.push(...fresh);
    for (const g of fresh) {
      if (cfg.grpo.zeroVariance === 'keep' || !isZeroVarianceGroup(g.rewards)) train.push(g);
    }
    if (cfg.grpo.zeroVariance !== 'dynamic_sampling' || train.length >= want || rounds >= cfg.grpo.maxResampleRounds) break;
    rounds++;
  }
  train = train.slice(0, cfg.grpo.zeroVariance === 'dynamic_sampling' ? want : train.length);
  return { sampled, train, rounds };
}
