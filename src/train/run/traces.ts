/** Trace records: one episode, turn by turn, as the metrics log and the dashboard show it. */
import type { ScoredEpisode } from '../grpo/credit-assignment.js';
import type { MetricRecord } from '../metrics/metrics-log.js';

/** An episode with its reward, and the advantage it was trained with when it was. */
export type TracedEpisode = ScoredEpisode | { episode: ScoredEpisode['episode']; reward: number; advantage?: number };

/**
 * The trace record of an episode at a step of a split.
 *
 * @example
 * ```ts
 * await log.append(traceRecord(step, 'train', run.now(), scored));
 * ```
 */
export function traceRecord(step: number, split: string, time: number, s: TracedEpisode): MetricRecord {
  return {
    kind: 'trace',
    step,
    time,
    split,
    question: s.episode.question,
    turns: s.episode.turns.map((t, i) => {
      const advantage = 'turnAdvantages' in s ? s.turnAdvantages?.[i] : undefined;
      return { action: t.text, result: t.result, reward: t.reward, ...(t.errorType ? { error_type: t.errorType } : {}), ...(advantage !== undefined ? { advantage } : {}) };
    }),
    total_reward: s.reward,
    correct: s.episode.correct,
    advantage: s.advantage ?? null,
  };
}

/**
 * The episodes of a GRPO step worth a trace: the best and the worst, then the others, up to `limit`.
 *
 * @example
 * ```ts
 * for (const s of tracePicks(result.episodes, config.logging.tracesPerStep)) await log.append(traceRecord(step, 'train', now, s));
 * ```
 */
export function tracePicks(episodes: readonly ScoredEpisode[], limit: number): ScoredEpisode[] {
  const sorted = [...episodes].sort((a, b) => b.reward - a.reward);
  const picks = sorted.length > 1 ? [sorted[0]!, sorted[sorted.length - 1]!, ...sorted.slice(1, -1)] : sorted;
  return picks.slice(0, limit);
}
