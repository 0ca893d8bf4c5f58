/**
 * Held-out evaluation: greedy rollouts over the first N questions of a split, and sampled
 * rollouts (K per question) for pass@K and majority vote.
 */
import type { Rng } from '../../base/rng.js';
import { episodeReward } from '../math/advantages.js';
import { episodeMetrics } from '../metrics/episode-metrics.js';
import type { TrainablePolicy } from '../policy/trainable-policy.js';
import { stepRewardsOf, type Episode } from '../rollout/episode.js';
import type { EnvPool } from '../rollout/env-pool.js';
import { decodingOf, rolloutEpisodes, type Decoding, type RolloutOptions } from '../rollout/multi-turn-rollout.js';
import type { RolloutTask } from '../rollout/rollout-task.js';
import { sampledScores, type SampledScores, type SampleOutcome } from './pass-at-k.js';

/** Result of {@link evaluatePolicy}. */
export interface EvaluationResult {
  success: number;
  meanReturn: number;
  episodes: Episode[];
  /** Full episode statistics (documented metric names). */
  metrics: Record<string, number>;
  /** The decoding that produced these episodes (the task's guide applied or not, per `rollout.guidedDecoding`). */
  decoding: Decoding;
}

/**
 * Greedy (temperature 0) rollouts of `episodes` questions, in batches of `batchSize`.
 *
 * @example
 * ```ts
 * const r = await evaluatePolicy(policy, task, evalPool, 'eval', 20, rolloutOptions, rng);
 * r.success;
 * ```
 */
export async function evaluatePolicy<Obs>(
  policy: TrainablePolicy,
  task: RolloutTask<Obs>,
  pool: EnvPool<Obs>,
  split: string,
  episodes: number,
  options: RolloutOptions,
  rng: Rng,
  batchSize = 16,
): Promise<EvaluationResult> {
  const all: Episode[] = [];
  for (let start = 0; start < episodes; start += batchSize) {
    const n = Math.min(batchSize, episodes - start);
    const envs = pool.take(n);
    const jobs = envs.map((env, i) => ({ env, spec: task.episodeSpec?.(start + i, split) ?? { seed: start + i }, group: start + i }));
    all.push(...(await rolloutEpisodes(policy, task, jobs, { ...options, temperature: 0 }, rng, 'evaluation')));
  }
  const returns = all.map((e) => episodeReward(stepRewardsOf(e), 'sum'));
  const metrics = episodeMetrics(all, returns);
  return { success: metrics['success'] ?? 0, meanReturn: metrics['reward'] ?? 0, episodes: all, metrics, decoding: decodingOf(task, options, 'evaluation') };
}

/**
 * The episode outcomes among an evaluation's metrics (`outcomes/found_gold_result` → `found_gold_result`).
 *
 * @example
 * ```ts
 * outcomesOf({ success: 0.5, 'outcomes/found_gold_result': 0.6 }); // { found_gold_result: 0.6 }
 * ```
 */
export function outcomesOf(metrics: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(metrics).filter(([k]) => k.startsWith('outcomes/')).map(([k, v]) => [k.slice('outcomes/'.length), v]));
}

/** Result of {@link evaluateSampled}: pass@1 / pass@K / majority vote and the episodes. */
export interface SampledEvaluationResult extends SampledScores {
  episodes: Episode[];
  /** The decoding that produced these episodes. */
  decoding: Decoding;
}

/**
 * The answer an episode submitted, for majority votes: its last action when the env ended the
 * episode (SQLEnv ends episodes with `answer`; one cut off by the step budget votes with its last
 * call, which is then simply a wrong answer), none when it was cut off by the token limit or
 * never finished.
 *
 * @example
 * ```ts
 * finalAnswerOf(episode); // '{"name":"answer","arguments":{"value":"SELECT 1"}}'
 * ```
 */
export function finalAnswerOf(episode: Episode): string | undefined {
  const last = episode.turns.at(-1);
  return episode.finished && !episode.truncatedByTokens && last ? last.action.replace(/\s+/g, ' ').trim() : undefined;
}

/**
 * Samples `samples` episodes per question at the rollout temperature for the first `questions`
 * questions of a split (episode specs as in {@link evaluatePolicy}, so the same questions), and
 * scores them: pass@1 (mean success of one sample), pass@K (unbiased, K = `samples`) and majority
 * vote over {@link finalAnswerOf}. pass@K − pass@1 is the headroom GRPO can turn into greedy success.
 *
 * @example
 * ```ts
 * const r = await evaluateSampled(policy, task, evalPool, 'eval', 40, 8, rolloutOptions, rng);
 * r.passAtK - r.passAt1; // headroom
 * ```
 */
export async function evaluateSampled<Obs>(
  policy: TrainablePolicy,
  task: RolloutTask<Obs>,
  pool: EnvPool<Obs>,
  split: string,
  questions: number,
  samples: number,
  options: RolloutOptions,
  rng: Rng,
  batchSize = 32,
): Promise<SampledEvaluationResult> {
  const jobsSpec = Array.from({ length: questions * samples }, (_, j) => Math.floor(j / samples));
  const all: Episode[] = [];
  for (let start = 0; start < jobsSpec.length; start += batchSize) {
    const slice = jobsSpec.slice(start, start + batchSize);
    const envs = pool.take(slice.length);
    const jobs = envs.map((env, i) => ({ env, spec: task.episodeSpec?.(slice[i]!, split) ?? { seed: slice[i]! }, group: slice[i]! }));
    all.push(...(await rolloutEpisodes(policy, task, jobs, options, rng, 'evaluation')));
  }
  const byQuestion: SampleOutcome[][] = Array.from({ length: questions }, () => []);
  all.forEach((e, j) => {
    const answer = finalAnswerOf(e);
    byQuestion[jobsSpec[j]!]!.push({ correct: e.correct, ...(answer === undefined ? {} : { answer }) });
  });
  return { ...sampledScores(byQuestion, samples), episodes: all, decoding: decodingOf(task, options, 'evaluation') };
}
