import type { GoldPlan } from './gold-lookup.js';

/**
 * The shortest answer value the judge reads as `rows`: a single cell as the bare value, a single
 * column as a flat list, anything else as the rows themselves. Scripted agents answer this way
 * so that SFT on their trajectories teaches a small model the fewest tokens to copy.
 *
 * @example
 * ```ts
 * compactAnswer([[420]]);             // 420
 * compactAnswer([['Lyon'], ['Oslo']]); // ['Lyon', 'Oslo']
 * compactAnswer([['Lyon', 3]]);        // [['Lyon', 3]]
 * ```
 */
export function compactAnswer(rows: GoldPlan['rows']): unknown {
  if (rows.length === 1 && rows[0]!.length === 1) return rows[0]![0];
  if (rows.length > 0 && rows.every((r) => r.length === 1)) return rows.map((r) => r[0]);
  return rows;
}
