/**
 * What reinforcement learning could still gain after SFT, per sampled split: pass@1 → pass@K, and
 * the sharpening ceiling — greedy success on the sampled questions plus the questions greedy
 * missed that a sample answered. A policy can only sharpen towards answers it already samples.
 */
import type { TrainingSummary } from '../run/run-types.js';
import { percent } from './results-table.js';

/**
 * The headroom line of the run's evaluation after SFT (`evaluations.sft`), or undefined when no
 * split was sampled there (eval.samples ≤ 1).
 *
 * @example
 * ```ts
 * headroomLine(summary, ['validation']);
 * // 'headroom after SFT (samples at the rollout temperature): validation pass@1 56.8% → pass@16 77.8% (majority vote 63.9%; …: ceiling 77.8%)'
 * ```
 */
export function headroomLine(summary: TrainingSummary, splits: readonly string[]): string | undefined {
  const sft = summary.evaluations['sft'];
  const parts = splits.flatMap((s) => {
    const v = sft?.[s]?.sampled;
    return v
      ? [`${s} pass@1 ${percent(v.passAt1)} → pass@${v.k} ${percent(v.passAtK)} (majority vote ${percent(v.majority)}; ` +
        `on these ${v.questions} questions greedy ${percent(v.greedy)}, ${v.missedButSampled} of its misses answered by a sample: ceiling ${percent(v.ceiling)})`]
      : [];
  });
  return parts.length ? `headroom after SFT (samples at the rollout temperature): ${parts.join(', ')}` : undefined;
}
