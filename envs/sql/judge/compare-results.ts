import { type Cell, type FloatTolerance, cellsEqual, compareCells, normaliseCell } from './cell.js';

/** How {@link resultsMatch} compares two tables. */
export interface MatchOptions {
  /** Compare rows in order (when the gold SQL has a top-level ORDER BY); otherwise as bags. */
  ordered: boolean;
  tolerance: FloatTolerance;
  /** Also accept the two tables as equal sets of distinct rows (for hand-written answers). */
  ignoreDuplicates?: boolean;
}

/** Most column orders tried; beyond it wide tables with identical columns are compared as given. */
const MAX_COLUMN_MAPPINGS = 2000;
/** Largest bag for the quadratic tolerant matching fallback. */
const MAX_GREEDY_ROWS = 300;

/**
 * Spider test-suite comparison of a predicted table against the gold one: same number of
 * columns, any permutation of the predicted columns, rows as a bag (or in order when `ordered`),
 * NULL equal to NULL, numbers within `tolerance`. Cells are normalised with `normaliseCell` first.
 *
 * @example
 * ```ts
 * resultsMatch([[32, 'Joe'], [41, 'Ann']], [['ann', 41], ['joe', 32]], { ordered: false, tolerance: { relative: 0, absolute: 0 } }); // true
 * ```
 */
export function resultsMatch(pred: readonly (readonly unknown[])[], gold: readonly (readonly unknown[])[], options: MatchOptions): boolean {
  const p = pred.map((row) => row.map(normaliseCell));
  const g = gold.map((row) => row.map(normaliseCell));
  if (tablesMatch(p, g, options.ordered, options.tolerance)) return true;
  if (options.ignoreDuplicates && !options.ordered) return tablesMatch(distinctRows(p), distinctRows(g), false, options.tolerance);
  return false;
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
 * only if the two columns hold the same bag of values, which prunes almost every permutation.
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
  // Sorting can misalign rows whose numbers differ within tolerance; match greedily when small.
  if (pred.length > MAX_GREEDY_ROWS) return false;
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
