import { type Cell, normaliseCell } from '../judge/cell.js';
import type { PotentialWeights } from './reward-config.js';

/** Φ and its parts, each in [0, 1]. */
export interface Potential {
  phi: number;
  cardinality: number;
  valueOverlap: number;
  numericRange: number;
}

/**
 * The progress potential Φ of a query result against the gold result, in [0, 1]:
 * the weighted mean of
 * - cardinality `1 − |n_pred − n_gold| / max(n_pred, n_gold, 1)`;
 * - value overlap: the F1 of the two multisets of cells, so precision counts and `SELECT *`
 *   over-retrieval does not pay;
 * - numeric range: how close the [min, max] of the predicted numbers is to the gold one's.
 * Φ = 1 exactly when the result equals the gold result as a bag of cells.
 *
 * @example
 * ```ts
 * progressPotential([[1], [2]], [[1], [2]], DEFAULT_REWARD_CONFIG.potentialWeights).phi; // 1
 * ```
 */
export function progressPotential(pred: readonly (readonly unknown[])[], gold: readonly (readonly unknown[])[], weights: PotentialWeights): Potential {
  const predCells = pred.flatMap((row) => row.map(normaliseCell));
  const goldCells = gold.flatMap((row) => row.map(normaliseCell));
  const cardinality = cardinalityScore(pred.length, gold.length);
  const valueOverlap = cellOverlapF1(predCells, goldCells);
  const numericRange = numericRangeScore(predCells, goldCells);
  const total = weights.cardinality + weights.valueOverlap + weights.numericRange;
  const phi = total > 0 ? (weights.cardinality * cardinality + weights.valueOverlap * valueOverlap + weights.numericRange * numericRange) / total : 0;
  return { phi: clamp01(phi), cardinality, valueOverlap, numericRange };
}

/**
 * `1 − |a − b| / max(a, b, 1)`.
 *
 * @example
 * ```ts
 * cardinalityScore(5, 10); // 0.5
 * ```
 */
export function cardinalityScore(predRows: number, goldRows: number): number {
  return 1 - Math.abs(predRows - goldRows) / Math.max(predRows, goldRows, 1);
}

/**
 * F1 of two multisets of cells (numbers matched to 6 significant digits). Both empty → 1.
 *
 * @example
 * ```ts
 * cellOverlapF1(['a', 'b', 'x', 'y'], ['a', 'b']); // precision 0.5, recall 1 → 0.667
 * ```
 */
export function cellOverlapF1(pred: readonly Cell[], gold: readonly Cell[]): number {
  if (pred.length === 0 && gold.length === 0) return 1;
  if (pred.length === 0 || gold.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const cell of gold) counts.set(cellKey(cell), (counts.get(cellKey(cell)) ?? 0) + 1);
  let overlap = 0;
  for (const cell of pred) {
    const key = cellKey(cell);
    const left = counts.get(key) ?? 0;
    if (left > 0) {
      overlap++;
      counts.set(key, left - 1);
    }
  }
  if (overlap === 0) return 0;
  const precision = overlap / pred.length;
  const recall = overlap / gold.length;
  return (2 * precision * recall) / (precision + recall);
}

/**
 * How close the numeric ranges are: `1 − (|min_p − min_g| + |max_p − max_g|) / (2·m)`, floored
 * at 0, with `m` the largest magnitude involved. No numbers on either side → 1; on one side → 0.
 *
 * @example
 * ```ts
 * numericRangeScore([10, 20], [10, 20]); // 1
 * ```
 */
export function numericRangeScore(pred: readonly Cell[], gold: readonly Cell[]): number {
  const p = pred.filter((c): c is number => typeof c === 'number');
  const g = gold.filter((c): c is number => typeof c === 'number');
  if (p.length === 0 && g.length === 0) return 1;
  if (p.length === 0 || g.length === 0) return 0;
  const [pMin, pMax] = range(p);
  const [gMin, gMax] = range(g);
  const scale = Math.max(Math.abs(pMin), Math.abs(pMax), Math.abs(gMin), Math.abs(gMax), 1e-9);
  return clamp01(1 - (Math.abs(pMin - gMin) + Math.abs(pMax - gMax)) / (2 * scale));
}

function range(values: readonly number[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

function cellKey(cell: Cell): string {
  if (cell === null) return 'null';
  if (typeof cell === 'number') return `n:${Number(cell.toPrecision(6))}`;
  return `s:${cell}`;
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}
