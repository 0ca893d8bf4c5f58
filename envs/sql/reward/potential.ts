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
 * `gold` is the gold rows, or their {@link profileGold} profile: an episode profiles its gold
 * result once, so each step pays only for the predicted cells.
 *
 * @example
 * ```ts
 * progressPotential([[1], [2]], [[1], [2]], DEFAULT_REWARD_CONFIG.potentialWeights).phi; // 1
 * ```
 */
export function progressPotential(pred: readonly (readonly unknown[])[], gold: readonly (readonly unknown[])[] | GoldProfile, weights: PotentialWeights): Potential {
  const g = isGoldProfile(gold) ? gold : profileGold(gold);
  // One pass over the predicted cells: normalise each, match it against what is left of the
  // gold multiset (a copy of the gold counts), and track the numeric range.
  const left = g.counts.slice();
  let predCells = 0;
  let overlap = 0;
  let predNumbers = 0;
  let pMin = Infinity;
  let pMax = -Infinity;
  const noText = g.textSlots.size === 0;
  for (let r = 0; r < pred.length; r++) {
    const row = pred[r]!;
    if (row === undefined && !(r in pred)) continue; // a hole: flatMap skips it
    for (let j = 0; j < row.length; j++) {
      const raw = row[j];
      if (raw === undefined && !(j in row)) continue; // a hole: flatMap/map skip it
      predCells++;
      // Text that surely stays text matches nothing in a gold result without text.
      if (noText && typeof raw === 'string' && surelyText(raw)) continue;
      const cell = normaliseCell(raw);
      let slot: number | undefined;
      if (typeof cell === 'number') {
        predNumbers++;
        if (cell < pMin) pMin = cell;
        if (cell > pMax) pMax = cell;
        // Rounding to 6 digits moves a number by at most 5e-6 of it: one further than 1e-5 of
        // it from every gold key cannot match, and is not looked up.
        const near = 1e-5 * Math.abs(cell);
        if (!(cell - g.keyMin < -near || cell - g.keyMax > near)) slot = g.numberSlots.get(numberMatchKey(cell));
      } else if (cell === null) {
        slot = g.nullSlot;
      } else if (g.textSlots.size > 0) {
        slot = g.textSlots.get(cell);
      }
      if (slot !== undefined && left[slot]! > 0) {
        overlap++;
        left[slot]!--;
      }
    }
  }
  const cardinality = cardinalityScore(pred.length, g.rows);
  const valueOverlap = overlapF1(overlap, predCells, g.cells);
  const numericRange =
    predNumbers === 0 && g.numbers === 0 ? 1 : predNumbers === 0 || g.numbers === 0 ? 0 : rangeScore(pMin, pMax, g.min, g.max);
  const total = weights.cardinality + weights.valueOverlap + weights.numericRange;
  const phi = total > 0 ? (weights.cardinality * cardinality + weights.valueOverlap * valueOverlap + weights.numericRange * numericRange) / total : 0;
  return { phi: clamp01(phi), cardinality, valueOverlap, numericRange };
}

/**
 * Whether `normaliseCell(s)` is surely text (not NULL, not a number), told from a prefix of s.
 * By the rules of normaliseCell: text starting with an ASCII letter other than e or n cannot
 * be NULL or a number; text starting with a digit cannot be NULL, and is no number once a
 * character that no number has appears (anything but digits, `,`, `.`, `e`, a sign after
 * `e`), since only surrounding whitespace, quotes, a leading currency sign and a trailing `%`
 * are stripped before the test. Whitespace, `%` or non-ASCII first: not sure (false).
 */
function surelyText(s: string): boolean {
  const first = s.charCodeAt(0);
  const letter = first | 0x20;
  if (letter >= 97 && letter <= 122) return letter !== 101 && letter !== 110;
  if (!(first >= 48 && first <= 57)) return false;
  for (let i = 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 48 && c <= 57) || c === 44 || c === 46 || c === 101 || c === 69) continue;
    if (c === 43 || c === 45) {
      const prev = s.charCodeAt(i - 1);
      if (prev === 101 || prev === 69) continue;
      return true;
    }
    return c > 32 && c < 127 && c !== 37;
  }
  return false;
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
  if (pred.length === 0 || gold.length === 0) return overlapF1(0, pred.length, gold.length);
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
  return overlapF1(overlap, pred.length, gold.length);
}

/** F1 from the size of the multiset intersection and the two sizes (both empty → 1). */
function overlapF1(overlap: number, predCells: number, goldCells: number): number {
  if (predCells === 0 && goldCells === 0) return 1;
  if (predCells === 0 || goldCells === 0) return 0;
  if (overlap === 0) return 0;
  const precision = overlap / predCells;
  const recall = overlap / goldCells;
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
  return rangeScore(pMin, pMax, gMin, gMax);
}

function rangeScore(pMin: number, pMax: number, gMin: number, gMax: number): number {
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
  if (typeof cell === 'number') return `n:${numberMatchKey(cell)}`;
  return `s:${cell}`;
}

/** 10^0 … 10^22, the powers of ten that doubles hold exactly. */
const POW10 = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

/**
 * The value a number is matched by in the value overlap: `Number(x.toPrecision(6))`, x rounded
 * to 6 significant digits, computed without formatting a string when that is provably the same
 * value. x·10^k is scaled to have 6 digits before the point; if it is not within 10^-6 of a
 * tie (far more than the rounding error of the product, below 2^-32), rounding it gives the
 * same 6 digits m as rounding the exact x, and m / 10^k (or m · 10^-k), one correctly rounded
 * operation on exact operands, is the double nearest to that decimal, as `Number()` of the
 * string would be. Anything else (near a tie, 10^k not exact, an estimate of the exponent
 * off) takes the string route. The reward tests compare it with the string route on many values.
 *
 * @example
 * ```ts
 * numberMatchKey(33.3333333); // 33.3333
 * numberMatchKey(82.47);      // 82.47
 * ```
 */
export function numberMatchKey(x: number): number {
  if (Number.isInteger(x) && x < 1e6 && x > -1e6) return x;
  const a = Math.abs(x);
  if (a >= 1e-16 && a < 1e27) {
    const k = 5 - Math.floor(Math.log10(a));
    const s = POW10[k < 0 ? -k : k]!;
    const t = k < 0 ? a / s : a * s;
    const m = Math.round(t);
    const tie = t - Math.floor(t) - 0.5;
    if (m >= 1e5 && m <= 1e6 && (tie > 1e-6 || tie < -1e-6)) {
      const r = k < 0 ? m * s : m / s;
      return x < 0 ? -r : r;
    }
  }
  return Number(x.toPrecision(6));
}

/** Gold cells as {@link progressPotential} needs them: a multiset of match keys and the numeric range. */
export interface GoldProfile {
  readonly kind: 'gold-profile';
  /** Number of gold rows. */
  rows: number;
  /** Slot of each match key in `counts`. */
  numberSlots: Map<number, number>;
  textSlots: Map<string, number>;
  nullSlot: number | undefined;
  counts: Int32Array;
  cells: number;
  numbers: number;
  min: number;
  max: number;
  /** The smallest and largest of the number keys (+∞ and −∞ without any). */
  keyMin: number;
  keyMax: number;
}

function isGoldProfile(gold: readonly (readonly unknown[])[] | GoldProfile): gold is GoldProfile {
  return (gold as GoldProfile).kind === 'gold-profile';
}

/**
 * The gold side of {@link progressPotential}, computed once: the gold result does not change
 * within an episode, so the episode keeps this and scores every query against it.
 *
 * @example
 * ```ts
 * const profile = profileGold(goldRows);
 * progressPotential(queryRows, profile, weights).phi;
 * ```
 */
export function profileGold(gold: readonly (readonly unknown[])[]): GoldProfile {
  const numberSlots = new Map<number, number>();
  const textSlots = new Map<string, number>();
  let nullSlot: number | undefined;
  const counts: number[] = [];
  let cells = 0;
  let numbers = 0;
  let min = Infinity;
  let max = -Infinity;
  let keyMin = Infinity;
  let keyMax = -Infinity;
  for (let r = 0; r < gold.length; r++) {
    const row = gold[r]!;
    if (row === undefined && !(r in gold)) continue; // a hole: flatMap skips it
    for (let j = 0; j < row.length; j++) {
      const value = row[j];
      if (value === undefined && !(j in row)) continue; // a hole
      cells++;
      const cell = normaliseCell(value);
      let slot: number | undefined;
      if (typeof cell === 'number') {
        numbers++;
        if (cell < min) min = cell;
        if (cell > max) max = cell;
        const key = numberMatchKey(cell);
        if (key < keyMin) keyMin = key;
        if (key > keyMax) keyMax = key;
        slot = numberSlots.get(key);
        if (slot === undefined) numberSlots.set(key, (slot = counts.push(0) - 1));
      } else if (cell === null) {
        if (nullSlot === undefined) nullSlot = counts.push(0) - 1;
        slot = nullSlot;
      } else {
        slot = textSlots.get(cell);
        if (slot === undefined) textSlots.set(cell, (slot = counts.push(0) - 1));
      }
      counts[slot]!++;
    }
  }
  return { kind: 'gold-profile', rows: gold.length, numberSlots, textSlots, nullSlot, counts: Int32Array.from(counts), cells, numbers, min, max, keyMin, keyMax };
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}
