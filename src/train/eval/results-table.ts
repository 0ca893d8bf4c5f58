/**
 * The before/after results table of a training run: one row per policy (baselines, the model
 * after each phase), per split greedy success with mean return, or greedy success with pass@K
 * when the run sampled. Rendered as a Markdown table, so it pastes into notes and issues as is.
 */
import type { SplitSuccess } from '../run/run-types.js';

/** One row of the results table: a policy's results per held-out split. */
export interface ResultRow {
  policy: string;
  bySplit: SplitSuccess;
}

/**
 * A share as a percentage with one decimal.
 *
 * @example
 * ```ts
 * percent(0.4567); // '45.7%'
 * ```
 */
export function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

/**
 * The results table: per split, greedy success and mean return, or with sampling (`k` > 1)
 * greedy success and pass@k of k samples at the rollout temperature. A split a row has no
 * result for shows `—`.
 *
 * @example
 * ```ts
 * resultsTable([{ policy: 'oracle', bySplit: { eval: { success: 1, meanReturn: 1.17, episodes: 119 } } }], ['eval']);
 * // | policy | eval success | eval return |
 * // | ------ | ------------ | ----------- |
 * // | oracle | 100.0%       | 1.170       |
 * ```
 */
export function resultsTable(rows: readonly ResultRow[], splits: readonly string[], k = 0): string {
  const header = ['policy', ...splits.flatMap((s) => (k > 1 ? [`${s} greedy`, `${s} pass@${k}`] : [`${s} success`, `${s} return`]))];
  const lines = rows.map((r) => [r.policy, ...splits.flatMap((s) => {
    const v = r.bySplit[s];
    if (!v) return ['—', '—'];
    return k > 1 ? [percent(v.success), v.sampled ? percent(v.sampled.passAtK) : '—'] : [percent(v.success), v.meanReturn.toFixed(3)];
  })]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
  return [fmt(header), fmt(widths.map((w) => '-'.repeat(w))), ...lines.map(fmt)].join('\n');
}
