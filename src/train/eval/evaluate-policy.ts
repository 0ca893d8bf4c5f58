/**
 * Held-out evaluation: greedy rollouts over the first N questions of a split.
 */
import type { Rng } from '../../gym/rng.js';
import { episodeReward } from '../math/advantages.js';
import { episodeMetrics } from '../metrics/episode-metrics.js';
import type { TrainablePolicy } from '../policy/trainable-policy.js';
import { stepRewardsOf, type Episode } from '../rollout/episode.js';
import type { EnvPool } from '../rollout/env-pool.js';
import { rolloutEpisodes, type RolloutOptions } from '../rollout/multi-turn-rollout.js';
import type { RolloutTask } from '../rollout/rollout-task.js';

/** Result of {@link evaluatePolicy}. */
export interface EvaluationResult {
  success: number;
  meanReturn: number;
  episodes: Episode[];
  /** Full episode statistics (documented metric names). */
  metrics: Record<string, number>;
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
    all.push(...(await rolloutEpisodes(policy, task, jobs, { ...options, temperature: 0 }, rng)));
  }
  const returns = all.map((e) => episodeReward(stepRewardsOf(e), 'sum'));
  const metrics = episodeMetrics(all, returns);
  return { success: metrics['success'] ?? 0, meanReturn: metrics['reward'] ?? 0, episodes: all, metrics };
}
