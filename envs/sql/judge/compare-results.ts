import { roundForDisplay } from '../observation/display-number.js';
import { type Cell, type FloatTolerance, cellsEqual, compareCells, normaliseCell } from './cell.js';
import type { NumberMatch } from './judge-config.js';

/** How {@link resultsMatch} compares two tables. */
export interface MatchOptions {
  /** Compare rows in order (when the gold SQL has a top-level ORDER BY); otherwise as bags. */
  ordered: boolean;
  /** How non-integer numbers compare (default `'display'`: at the precision SQLEnv shows them). */
  numbers?: NumberMatch;
  /** Also accept the two tables as equal sets of distinct rows (off unless asked for). */
  ignoreDuplicates?: boolean;
}

/** Most column orders tried; beyond it wide tables with identical columns are compared as given. */
const MAX_COLUMN_MAPPINGS = 2000;
/** Largest bag for the quadratic tolerant matching fallback. */
const MAX_GREEDY_ROWS = 300;
/** Exact equality, once numbers are rounded to display precision. */
const EXACT: FloatTolerance = Object.freeze({ relative: 0, absolute: 0 });

/**
 * The official Spider test-suite comparison (`result_eq`) of a predicted table against the gold
 * one: both empty, or the same number of rows and of columns; some permutation of the predicted
 * columns under which the rows are the same multiset (duplicates count) — or the same sequence
 * when `ordered`; NULL equals NULL. Cells are normalised with `normaliseCell` first (text case,
 * quotes and numeric text), and non-integer numbers compare at display precision (`numbers`).
 *
 * @example
 * ```ts
 * resultsMatch([[32, 'Joe'], [41, 'Ann']], [['ann', 41], ['joe', 32]], { ordered: false }); // true
 * resultsMatch([[4], [3], [5]], [[4], [4], [3], [5]], { ordered: false });                  // false
 * ```
 */
export function resultsMatch(pred: readonly (readonly unknown[])[], gold: readonly (readonly unknown[])[], options: MatchOptions): boolean {
  // Different row counts never match unless duplicates may be dropped: answer before normalising
  // every cell (a query step checks its whole result, which may be thousands of rows).
  if (pred.length !== gold.length && !(options.ignoreDuplicates && !options.ordered)) return false;
  const numbers = options.numbers ?? 'display';
  const read = numbers === 'display' ? displayCellOf : normaliseCell;
  const tolerance = numbers === 'display' ? EXACT : numbers;
  const p = pred.map((row) => row.map(read));
  const g = gold.map((row) => row.map(read));
  if (tablesMatch(p, g, options.ordered, tolerance)) return true;
  if (options.ignoreDuplicates && !options.ordered) return tablesMatch(distinctRows(p), distinctRows(g), false, tolerance);
  return false;
}

/** A normalised cell with its number rounded to display precision, so equality is exact. */
function displayCellOf(value: unknown): Cell {
  const cell = normaliseCell(value);
  return typeof cell === 'number' ? roundForDisplay(cell) : cell;
}

function tablesMatch(pred: Cell[][], gold: Cell[][], ordered: boolean, tolerance: FloatTolerance): boolean {
  if (pred.length !== gold.length) return false;
  if (gold.length === 0) return true;
  const width = gold[0]!.length;
  if (gold.some((r) => r.length !== width) || pred.some((r) => r.length !== width)) return false;
  for (const mapping of columnMappings(pred, gold, width, tolerance)) {
    const permuted = pred.map((row) => mapping.map((i) => row[i]!));
    if (ordered ? rowsEqualInOrder(permuted, gold, tolerance) : bagsEqual(permuted, gold, tolerance)) return true;
  }
  return false;
}

/**
 * Column orders of `pred` worth trying: predicted column `mapping[j]` stands for gold column `j`
 * only if the two columns hold the same bag of values, which prunes almost every permutation
 * (the official evaluator prunes the same way, by sampled rows).
 */
function* columnMappings(pred: Cell[][], gold: Cell[][], width: number, tolerance: FloatTolerance): Generator<number[]> {
  const predColumns = Array.from({ length: width }, (_, i) => sortedColumn(pred, i));
  const goldColumns = Array.from({ length: width }, (_, j) => sortedColumn(gold, j));
  const candidates = goldColumns.map((gc) => predColumns.flatMap((pc, i) => (sequencesEqual(pc, gc, tolerance) ? [i] : [])));
  const mapping: number[] = [];
  const used = new Set<number>();
  let yielded = 0;
  function* extend(j: number): Generator<number[]> {
    if (yielded >= MAX_COLUMN_MAPPINGS) return;
    if (j === width) {
      yielded++;
      yield [...mapping];
      return;
    }
    for (const i of candidates[j]!) {
      if (used.has(i)) continue;
      used.add(i);
      mapping.push(i);
      yield* extend(j + 1);
      mapping.pop();
      used.delete(i);
    }
  }
  yield* extend(0);
}

function sortedColumn(table: Cell[][], index: number): Cell[] {
  return table.map((row) => row[index]!).sort(compareCells);
}

function sequencesEqual(a: readonly Cell[], b: readonly Cell[], tolerance: FloatTolerance): boolean {
  return a.length === b.length && a.every((cell, i) => cellsEqual(cell, b[i]!, tolerance));
}

function rowsEqualInOrder(pred: Cell[][], gold: Cell[][], tolerance: FloatTolerance): boolean {
  return pred.every((row, i) => sequencesEqual(row, gold[i]!, tolerance));
}

function compareRows(a: readonly Cell[], b: readonly Cell[]): number {
  for (let i = 0; i < a.length; i++) {
    const c = compareCells(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return 0;
}

function bagsEqual(pred: Cell[][], gold: Cell[][], tolerance: FloatTolerance): boolean {
  const ps = [...pred].sort(compareRows);
  const gs = [...gold].sort(compareRows);
  if (rowsEqualInOrder(ps, gs, tolerance)) return true;
  // With exact equality sorted bags decide it. Within a tolerance, sorting can misalign rows whose
  // numbers differ slightly; match greedily when small.
  if (tolerance === EXACT || pred.length > MAX_GREEDY_ROWS) return false;
  const unmatched = [...gs];
  for (const row of ps) {
    const at = unmatched.findIndex((g) => sequencesEqual(row, g, tolerance));
    if (at < 0) return false;
    unmatched.splice(at, 1);
  }
  return true;
}

function distinctRows(rows: Cell[][]): Cell[][] {
  const seen = new Set<string>();
  return rows.filter((row) => {
    const key = JSON.stringify(row);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
