/**
 * SQLEnv's outcomes beside success: greedy episodes whose query found the gold result against
 * those answered right. The gap is answers that threw a found result away — a small model writes
 * the answer's SQL afresh instead of repeating its query — which success alone does not show.
 */
import type { TrainingSummary } from '../../train/run/run-types.js';
import { percent } from '../../train/eval/results-table.js';

/**
 * The found-versus-answered line after SFT and after GRPO, or undefined when no evaluation reported
 * SQLEnv's `found_gold_result` outcome (no episode finished, or a task without outcomes).
 *
 * @example
 * ```ts
 * foundVersusAnswered(summary, ['validation']);
 * // 'a query returned the gold result (greedy) vs answered right — after SFT: validation 40.0% found, 10.0% answered; …'
 * ```
 */
export function foundVersusAnswered(summary: TrainingSummary, splits: readonly string[]): string | undefined {
  const parts = ['sft', 'final'].flatMap((label) => {
    const at = summary.evaluations[label];
    const cells = splits.flatMap((s) => {
      const v = at?.[s];
      const found = v?.outcomes?.['found_gold_result'];
      const repeats = v?.outcomes?.['answer_repeats_query'];
      const copied = v?.outcomes?.['gold_literals_written'];
      const notes = [repeats === undefined ? '' : `${percent(repeats)} repeating the query`, copied === undefined ? '' : `${percent(copied)} writing the gold SQL's values`].filter(Boolean);
      return v && found !== undefined ? [`${s} ${percent(found)} found, ${percent(v.success)} answered${notes.length ? ` (${notes.join('; ')})` : ''}`] : [];
    });
    return cells.length ? [`${label === 'sft' ? 'after SFT' : 'after GRPO'}: ${cells.join(', ')}`] : [];
  });
  return parts.length ? `a query returned the gold result (greedy) vs answered right — ${parts.join('; ')}` : undefined;
}
