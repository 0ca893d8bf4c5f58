import type { DatasetSource } from '../datasets/dataset-source.js';
import { loadDataset } from '../datasets/load-dataset.js';
import type { SqlDataset } from '../datasets/sql-dataset.js';
import { questionKey, validateSplit, type ValidateOptions } from './validate-split.js';
import type { ValidationReport } from './validation-report.js';

/** Options of {@link validateDataset}. */
export interface ValidateDatasetOptions extends ValidateOptions {
  /** Called when a split is done, with the seconds it took (progress output). */
  onSplit?: ((split: string, seconds: number) => void) | undefined;
}

/**
 * Validate several splits of a dataset with {@link validateSplit} and add, to each split's
 * statistics, how many of its questions another split repeats word for word about the same
 * database (a training question in an evaluation split is a leak).
 *
 * @example
 * ```ts
 * const report = await validateDataset('bundled', ['train', 'eval'], { pool, sampleSize: 50 });
 * console.log(renderValidationReport(report));
 * ```
 */
export async function validateDataset(source: DatasetSource, splits: readonly string[], options: ValidateDatasetOptions): Promise<ValidationReport> {
  const report: ValidationReport = { checks: [], stats: [] };
  const keys = new Map<string, Set<string>>();
  for (const split of splits) {
    const started = performance.now();
    let dataset: SqlDataset | undefined;
    try {
      dataset = await loadDataset(source, split, { pool: options.pool });
      const part = await validateSplit(dataset, options);
      report.checks.push(...part.checks);
      report.stats.push(...part.stats);
      keys.set(split, new Set(dataset.questions.map(questionKey)));
    } finally {
      await dataset?.close();
    }
    options.onSplit?.(split, (performance.now() - started) / 1000);
  }
  for (const stats of report.stats) {
    const mine = keys.get(stats.split)!;
    const shared: Record<string, number> = {};
    for (const [other, theirs] of keys) {
      if (other === stats.split) continue;
      let n = 0;
      for (const key of mine) if (theirs.has(key)) n++;
      if (n > 0) shared[other] = n;
    }
    stats.sharedWith = shared;
  }
  return report;
}
