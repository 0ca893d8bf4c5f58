/**
 * The fast paths of the reward code against the implementations they replaced (kept below as
 * references, verbatim): `normaliseCell`'s text fast path, the number match key without
 * `toPrecision`, `progressPotential` with its gold side profiled once and one pass over the
 * predicted cells (Φ and its parts must be bit-for-bit identical), and the result hash for the
 * novelty reward (its value changed; its meaning must not: equal results ⇔ equal hashes).
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledDataDir } from '../../envs/sql/datasets/bundled-data-dir.js';
import { hashResult } from '../../envs/sql/episode/result-hash.js';
import { normaliseCell, type Cell } from '../../envs/sql/judge/cell.js';
import { numberMatchKey, profileGold, progressPotential, type Potential } from '../../envs/sql/reward/potential.js';
import { DEFAULT_REWARD_CONFIG, type PotentialWeights } from '../../envs/sql/reward/reward-config.js';
import { toSqlCell } from '../../envs/sql/sandbox/cells.js';

// ---------------------------------------------------------------------------------------------
// Reference implementations (as they were before the fast paths), kept verbatim.

const REF_NUMBER_TEXT = /^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:e[+-]?\d+)?$/i;
const REF_CURRENCY = /^[$€£¥]\s*/;

function refNormaliseCell(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isNaN(value) ? null : value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  if (typeof value === 'object') return refNormaliseText(JSON.stringify(value));
  return refNormaliseText(String(value));
}

function refNormaliseText(raw: string): Cell {
  let text = raw.trim();
  for (let i = 0; i < 2; i++) {
    const quoted = /^(["'`])([\s\S]*)\1$/.exec(text);
    if (quoted) text = quoted[2]!.trim();
  }
  if (/^null$/i.test(text)) return null;
  const numeric = text.replace(REF_CURRENCY, '').replace(/%$/, '').trim();
  if (numeric !== '' && /\d/.test(numeric) && REF_NUMBER_TEXT.test(numeric)) {
    const n = Number(numeric.replace(/,/g, ''));
    if (Number.isFinite(n)) return n;
  }
  return text.toLowerCase().replace(/\s+/g, ' ');
}

function refProgressPotential(pred: readonly (readonly unknown[])[], gold: readonly (readonly unknown[])[], weights: PotentialWeights): Potential {
  const predCells = pred.flatMap((row) => row.map(refNormaliseCell));
  const goldCells = gold.flatMap((row) => row.map(refNormaliseCell));
  const cardinality = refCardinalityScore(pred.length, gold.length);
  const valueOverlap = refCellOverlapF1(predCells, goldCells);
  const numericRange = refNumericRangeScore(predCells, goldCells);
  const total = weights.cardinality + weights.valueOverlap + weights.numericRange;
  const phi = total > 0 ? (weights.cardinality * cardinality + weights.valueOverlap * valueOverlap + weights.numericRange * numericRange) / total : 0;
  return { phi: refClamp01(phi), cardinality, valueOverlap, numericRange };
}

function refCardinalityScore(predRows: number, goldRows: number): number {
  return 1 - Math.abs(predRows - goldRows) / Math.max(predRows, goldRows, 1);
}

function refCellOverlapF1(pred: readonly Cell[], gold: readonly Cell[]): number {
  if (pred.length === 0 && gold.length === 0) return 1;
  if (pred.length === 0 || gold.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const cell of gold) counts.set(refCellKey(cell), (counts.get(refCellKey(cell)) ?? 0) + 1);
  let overlap = 0;
  for (const cell of pred) {
    const key = refCellKey(cell);
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

function refNumericRangeScore(pred: readonly Cell[], gold: readonly Cell[]): number {
  const p = pred.filter((c): c is number => typeof c === 'number');
  const g = gold.filter((c): c is number => typeof c === 'number');
  if (p.length === 0 && g.length === 0) return 1;
  if (p.length === 0 || g.length === 0) return 0;
  const [pMin, pMax] = refRange(p);
  const [gMin, gMax] = refRange(g);
  const scale = Math.max(Math.abs(pMin), Math.abs(pMax), Math.abs(gMin), Math.abs(gMax), 1e-9);
  return refClamp01(1 - (Math.abs(pMin - gMin) + Math.abs(pMax - gMax)) / (2 * scale));
}

function refRange(values: readonly number[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return [lo, hi];
}

function refCellKey(cell: Cell): string {
  if (cell === null) return 'null';
  if (typeof cell === 'number') return `n:${Number(cell.toPrecision(6))}`;
  return `s:${cell}`;
}

function refClamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

function refHashResult(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const hash = createHash('sha1');
  hash.update(JSON.stringify(columns));
  for (const row of rows) hash.update(JSON.stringify(row));
  return hash.digest('hex').slice(0, 16);
}

// ---------------------------------------------------------------------------------------------
// Generators (seeded, so a failure reproduces).

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/** The double `steps` representable values away from x (same sign side). */
function ulps(x: number, steps: number): number {
  f64[0] = x;
  const lo = u32[0]! + steps;
  u32[1] = u32[1]! + Math.floor(lo / 2 ** 32);
  u32[0] = lo >>> 0;
  return f64[0]!;
}

function numbersToTry(random: () => number): number[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const out: number[] = [0, -0, 1, -1, Infinity, -Infinity, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, 2 ** 53, 2 ** 31, -(2 ** 31), 0.1 + 0.2, 1 / 3, 2 / 3];
  for (let e = -330; e <= 310; e++) {
    const p = Number(`1e${e}`);
    for (const x of [p, 9.999995 * p, 9.999994 * p, 9.999996 * p, 1.000005 * p, 1.234565 * p, 5 * p, 999999.5 * p]) {
      out.push(x, -x, ulps(x, 1), ulps(x, -1), ulps(x, 2), ulps(x, -2));
    }
  }
  for (let i = 0; i < 100_000; i++) {
    const kind = i % 8;
    let x: number;
    if (kind === 0) x = Math.floor((random() - 0.5) * 10 ** Math.floor(random() * 22)); // integers, all magnitudes
    else if (kind === 1) x = Number(`${Math.floor(random() * 10 ** (1 + Math.floor(random() * 9)))}e${Math.floor(random() * 50) - 25}`); // decimals of 1–9 digits
    else if (kind === 2) x = Number(`${Math.floor(random() * 1e6)}5e${Math.floor(random() * 50) - 30}`); // 7-digit ties
    else if (kind === 3) x = ulps(Number(`${Math.floor(random() * 1e6)}5e${Math.floor(random() * 40) - 25}`), Math.floor(random() * 7) - 3); // around ties
    else if (kind === 4) x = Math.round(random() * 100_000) / 100; // prices
    else if (kind === 5) x = random() * 10 ** (Math.floor(random() * 40) - 20); // many digits
    else if (kind === 6) {
      u32[0] = Math.floor(random() * 2 ** 32);
      u32[1] = Math.floor(random() * 2 ** 32);
      x = f64[0]!; // any bit pattern
      if (Number.isNaN(x)) continue;
    } else x = pick([1, 10, 100, 1000, 1e5, 1e6, 1e7]) * Math.round(random() * 1e6) / pick([1, 3, 7, 100, 1e4]); // mixed
    out.push(random() < 0.5 ? x : -x);
  }
  return out.filter((x) => !Number.isNaN(x)); // normalised cells are never NaN
}

const TRICKY_TEXT = [
  '', ' ', '  ', 'a', 'A', 'Paris', ' Paris ', 'paris', 'New  York', 'New York', 'new\tyork', 'a\nb', 'a\u00a0b', '\u00a0x', 'x\u2003', '\ufeffx',
  'a\u180eb', 'a\u0085b', 'x\u2028', '"quoted"', "'x'", '`y`', '"x\'', '"', "''", '""""', '" "a" "', 'it\'s', 'say "hi"', 'null', 'NULL', 'Null',
  ' null ', '"null"', 'nul', 'nulls', 'null.', '1', '-1', '+1', '1.5', '.5', '5.', '-.5', '1,234', '1,23', '12,345,678.9', '1e5', '1E5', '-1.5e-3',
  '1e+5', '1e', 'e5', 'E', 'e', '1e999', '-1e999', '2023-01-05', '2023/01/05', '12:30', '5-', '5+', '+-5', '--5', '1-e5', '1e-5', '1e--5', '0x1F',
  'Infinity', '-Infinity', 'NaN', '$5', '$ 5', '€5', '£ 5.50', '¥1,000', '5$', '45%', '45 %', '%', '%5', '$', '$%', '$5%', '"$5"', ' 45% ', '١٢٣',
  'İstanbul', 'ÀB', 'ß', 'Σ', 'ΑΣ', 'ǅ', 'ﬀ', '🙂', 'a🙂B', '\u0000', 'a\u0007b', 'a\u007fb', '12 Main St', 'Room 101', 'v1.2.3', '1.2.3', '3.14abc',
  'abc3.14', '#5', '5#', '(5)', '1 000', '1_000', '٫5', '0.0', '-0', '+0', '00012', '1,2345', ',', '.', '+', '-', ',5', '5,', 'e+5', '.e5',
];

function randomText(random: () => number): string {
  const alphabet = ['a', 'b', 'Z', 'E', 'e', '0', '1', '9', ' ', ' ', '  ', '\t', '\n', ',', '.', '-', '+', '%', '$', '€', '"', "'", '`', 'null', 'é', 'İ', '\u00a0', '\u3000', '_', '/', ':'];
  const n = Math.floor(random() * 8);
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(random() * alphabet.length)];
  return s;
}

function randomCell(random: () => number, sandboxOnly: boolean): unknown {
  const r = random();
  if (r < 0.1) return null;
  if (r < 0.3) return Math.floor(random() * 50);
  if (r < 0.4) return Math.round(random() * 5000) / 100;
  if (r < 0.45) return random() * 100;
  if (r < 0.5) return [1.0000001, 0.99999999, 2.5, 1e7 + 1, -3, 0.30000000000000004][Math.floor(random() * 6)];
  if (r < 0.7) return TRICKY_TEXT[Math.floor(random() * TRICKY_TEXT.length)];
  if (r < 0.85 || sandboxOnly) return randomText(random);
  const others = [true, false, 7n, 2n ** 70n, new Uint8Array([1, 255]), Buffer.from('hi'), { a: 1 }, ['x'], NaN, -0, undefined];
  return others[Math.floor(random() * others.length)];
}

function randomRows(random: () => number, sandboxOnly = false): unknown[][] {
  const nRows = Math.floor(random() ** 2 * 30);
  const nCols = Math.floor(random() * 4);
  const rows: unknown[][] = [];
  for (let i = 0; i < nRows; i++) {
    const width = random() < 0.9 ? nCols : Math.floor(random() * 5);
    rows.push(Array.from({ length: width }, () => randomCell(random, sandboxOnly)));
  }
  return rows;
}

/** A result related to `rows`: a subset, reordered, with cells changed, or with cells turned into text. */
function relatedRows(random: () => number, rows: readonly unknown[][]): unknown[][] {
  const out = rows.filter(() => random() < 0.8).map((row) => [...row]);
  if (random() < 0.5) out.reverse();
  for (const row of out) {
    for (let j = 0; j < row.length; j++) {
      const r = random();
      const c = row[j];
      if (r < 0.1) row[j] = randomCell(random, false);
      else if (r < 0.2 && typeof c === 'number') row[j] = random() < 0.5 ? ` ${c} ` : `$${c}`;
      else if (r < 0.25 && typeof c === 'number') row[j] = c * (1 + (random() - 0.5) * 1e-6);
      else if (r < 0.3 && typeof c === 'string') row[j] = random() < 0.5 ? c.toUpperCase() : ` "${c}" `;
    }
  }
  if (random() < 0.3) out.push(...randomRows(random));
  return out;
}

const WEIGHTS: PotentialWeights[] = [
  DEFAULT_REWARD_CONFIG.potentialWeights,
  { cardinality: 1, valueOverlap: 0, numericRange: 0 },
  { cardinality: 0, valueOverlap: 1, numericRange: 0 },
  { cardinality: 0, valueOverlap: 0, numericRange: 1 },
  { cardinality: 0, valueOverlap: 0, numericRange: 0 },
  { cardinality: 0.1, valueOverlap: 0.7, numericRange: 0.2 },
];

function expectSamePotential(pred: readonly (readonly unknown[])[], gold: readonly (readonly unknown[])[], weights: PotentialWeights): void {
  const fast = progressPotential(pred, gold, weights);
  const ref = refProgressPotential(pred, gold, weights);
  // Bit for bit: Object.is tells 0 from -0 and compares NaN with itself.
  for (const part of ['phi', 'cardinality', 'valueOverlap', 'numericRange'] as const) {
    if (!Object.is(fast[part], ref[part])) {
      expect.fail(`${part}: ${fast[part]} ≠ reference ${ref[part]} for pred ${describeRows(pred)} gold ${describeRows(gold)}`);
    }
  }
}

function describeRows(rows: readonly (readonly unknown[])[]): string {
  return JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)).slice(0, 400);
}

// ---------------------------------------------------------------------------------------------
// Real results: every table and the gold results of bundled questions, as the sandbox renders them.

interface RealDb {
  name: string;
  results: unknown[][][];
}

function realResults(): RealDb[] {
  const dir = bundledDataDir();
  const questions = (JSON.parse(readFileSync(join(dir, 'train.json'), 'utf8')) as { query: string; db_id: string }[]).concat(
    JSON.parse(readFileSync(join(dir, 'eval.json'), 'utf8')) as { query: string; db_id: string }[],
  );
  const out: RealDb[] = [];
  for (const name of readdirSync(join(dir, 'database')).sort()) {
    const db = new Database(join(dir, 'database', name, `${name}.sqlite`), { readonly: true, fileMustExist: true });
    try {
      const read = (sql: string) => (db.prepare(sql).raw(true).all() as unknown[][]).map((row) => row.map(toSqlCell));
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
      const results = tables.map((t) => read(`SELECT * FROM "${t.replace(/"/g, '""')}"`));
      const golds = questions.filter((q) => q.db_id === name);
      for (let i = 0; i < golds.length; i += Math.max(1, Math.floor(golds.length / 6))) results.push(read(golds[i]!.query));
      out.push({ name, results });
    } finally {
      db.close();
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

describe('normaliseCell fast path', () => {
  it('equals the reference on tricky and random text', () => {
    const random = rng(1);
    const texts = [...TRICKY_TEXT];
    for (const a of TRICKY_TEXT) for (const b of TRICKY_TEXT.slice(0, 60)) texts.push(a + b, `${a} ${b}`);
    for (let i = 0; i < 100_000; i++) texts.push(randomText(random));
    let checked = 0;
    for (const text of texts) {
      const fast = normaliseCell(text);
      const ref = refNormaliseCell(text);
      if (!Object.is(fast, ref)) expect.fail(`normaliseCell(${JSON.stringify(text)}) = ${JSON.stringify(fast)}, reference ${JSON.stringify(ref)}`);
      checked++;
    }
    expect(checked).toBeGreaterThan(100_000);
  });

  it('equals the reference on numbers written as text and on other values', () => {
    const random = rng(2);
    const values: unknown[] = [true, false, 7n, -(2n ** 70n), new Uint8Array([0, 16]), { a: ' X ' }, ['1'], NaN, undefined, null, Symbol.for('s')];
    for (const x of numbersToTry(random).slice(0, 20_000)) values.push(x, String(x), x.toFixed(2), x.toLocaleString('en-US'), `$${x}`, `${x}%`);
    for (const value of values) {
      const fast = normaliseCell(value);
      const ref = refNormaliseCell(value);
      if (!Object.is(fast, ref)) expect.fail(`normaliseCell(${String(value)}) = ${String(fast)}, reference ${String(ref)}`);
    }
  });
});

describe('numberMatchKey', () => {
  it('is Number(x.toPrecision(6)) on every number tried', () => {
    const xs = numbersToTry(rng(3));
    expect(xs.length).toBeGreaterThan(100_000);
    for (const x of xs) {
      const fast = numberMatchKey(x);
      const ref = Number(x.toPrecision(6));
      // Keys are compared as the old `n:${key}` strings were: 0 and -0 alike.
      if (!(fast === ref)) expect.fail(`numberMatchKey(${x}) = ${fast}, reference ${ref}`);
    }
  });
});

describe('progressPotential equals the reference bit for bit', () => {
  it('on random results and related pairs', () => {
    const random = rng(4);
    for (let i = 0; i < 4000; i++) {
      const gold = randomRows(random);
      const pred = random() < 0.7 ? relatedRows(random, gold) : randomRows(random);
      expectSamePotential(pred, gold, WEIGHTS[i % WEIGHTS.length]!);
      expectSamePotential(randomRows(random), gold, WEIGHTS[0]!);
      expectSamePotential(gold, gold, WEIGHTS[0]!);
      // An episode profiles its gold once and scores every query against the profile: the same values.
      const profile = profileGold(gold);
      for (const p of [pred, gold, randomRows(random)]) expect(progressPotential(p, profile, WEIGHTS[1]!)).toEqual(progressPotential(p, gold, WEIGHTS[1]!));
    }
  });

  it('on edge shapes: empty, zero-column rows, holes, undefined cells', () => {
    const shapes: unknown[][][] = [[], [[]], [[], []], [[null]], [[undefined]], [[1]], [[1, 'a']], [[-0]], [[0]], [[NaN]], [[Infinity]], [['1e999']]];
    // eslint-disable-next-line no-sparse-arrays
    shapes.push([[1, , 3]], [[, 'a']], [[1], [2]]);
    const sparseRows: unknown[][] = [[1]];
    sparseRows[2] = [2];
    shapes.push(sparseRows);
    for (const pred of shapes) for (const gold of shapes) for (const w of WEIGHTS) expectSamePotential(pred, gold, w);
  });

  it('on text against gold results without text (where text is not normalised)', () => {
    const random = rng(8);
    const golds: unknown[][][] = [[[1], [2.5], [null]], [[20]], [[null]], [[1e-7, -3]], [[0], ['42']], [['null'], ['$5']]];
    const texts = [...TRICKY_TEXT, ...Array.from({ length: 3000 }, () => randomText(random))];
    for (const letter of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ@[`{') texts.push(letter, `${letter}5`, `${letter}ull`, `${letter} 1`);
    const tails = ['', '-', '+', 'e', 'E', 'e-', 'E+', ',', '.', ' ', '%', ' %', '\t', '/', ':', 'x', '"', '$', '\u00a0', 'é', '5', '00'];
    for (let i = 0; i < 5000; i++) {
      let text = String(Math.floor(random() * 1000));
      const parts = Math.floor(random() * 4);
      for (let k = 0; k < parts; k++) text += tails[Math.floor(random() * tails.length)]! + (random() < 0.5 ? String(Math.floor(random() * 100)) : '');
      texts.push(text); // digit first: dates, codes, numbers with signs, exponents, units
    }
    for (const gold of golds) {
      for (const text of texts) expectSamePotential([[text], [text, 1]], gold, WEIGHTS[0]!);
      expectSamePotential(texts.map((t) => [t]), gold, WEIGHTS[0]!);
    }
  });

  it('after the gold rows are changed in place between calls', () => {
    const gold: unknown[][] = [[1, 'a'], [2, 'b']];
    const pred = [[1, 'a'], [3, 'c']];
    expectSamePotential(pred, gold, WEIGHTS[0]!);
    gold[1]![0] = 3;
    expectSamePotential(pred, gold, WEIGHTS[0]!);
    gold[1]![1] = 'c';
    expectSamePotential(pred, gold, WEIGHTS[0]!);
    expect(progressPotential(pred, gold, WEIGHTS[0]!).phi).toBe(1);
    gold.push([4, 'd']);
    expectSamePotential(pred, gold, WEIGHTS[0]!);
    gold[0] = [1];
    expectSamePotential(pred, gold, WEIGHTS[0]!);
    gold[0]!.push(-0);
    expectSamePotential(pred, gold, WEIGHTS[0]!);
    gold[0]![1] = 0;
    expectSamePotential(pred, gold, WEIGHTS[0]!);
    const blob = new Uint8Array([1]);
    const withBlob = [[blob]];
    expectSamePotential([['01']], withBlob, WEIGHTS[0]!);
    blob[0] = 2;
    expectSamePotential([['01']], withBlob, WEIGHTS[0]!);
    expectSamePotential([['02']], withBlob, WEIGHTS[0]!);
  });

  it('on real results of the bundled databases (tables and gold results, pairwise)', () => {
    let pairs = 0;
    for (const db of realResults()) {
      for (const gold of db.results) {
        for (const pred of db.results) {
          expectSamePotential(pred, gold, WEIGHTS[0]!);
          pairs++;
        }
      }
    }
    expect(pairs).toBeGreaterThan(1000);
  }, 120_000);
});

describe('hashResult keeps its meaning', () => {
  it('equal results give equal hashes, however the values were built', () => {
    const random = rng(5);
    for (let i = 0; i < 2000; i++) {
      const rows = randomRows(random, true);
      const copy = rows.map((row) => row.map((c) => (typeof c === 'string' ? c.split('').join('') : c)));
      expect(hashResult(['a', 'b'], copy)).toBe(hashResult(['a', 'b'], rows));
    }
    expect(hashResult(['x'], [[0]])).toBe(hashResult(['x'], [[-0]]));
    expect(hashResult(['id', 'name'], [[1, 'Ann']])).toMatch(/^[0-9a-f]{16}$/);
  });

  it('two results hash equal exactly when the old (JSON + SHA-1) hash did', () => {
    const random = rng(6);
    const variants = (rows: unknown[][]): [string[], unknown[][]][] => {
      const out: [string[], unknown[][]][] = [[['a', 'b'], rows], [['a', 'c'], rows], [['ab'], rows], [['a', 'b'], rows.slice(1)], [['a', 'b'], [...rows].reverse()]];
      const flat = rows.flat();
      out.push([['a', 'b'], flat.length > 0 ? [flat] : [[]]], [['a', 'b'], flat.map((c) => [c])]); // cells moved between rows
      for (let k = 0; k < 6; k++) {
        const changed = rows.map((row) => [...row]);
        const row = changed[Math.floor(random() * changed.length)];
        if (!row || row.length === 0) continue;
        const j = Math.floor(random() * row.length);
        const c = row[j];
        const options: unknown[] = [null, 'null', String(c), typeof c === 'string' ? Number(c) : c, typeof c === 'number' ? c + 2 ** -40 : `${String(c)} `, `${String(c)}x`, `${String(c)}\u0000`, 2 ** 31, 2 ** 29, -(2 ** 29), 2 ** 29 - 1, 1.5];
        row[j] = options[Math.floor(random() * options.length)];
        if (typeof row[j] === 'number' && !Number.isFinite(row[j])) row[j] = null;
        out.push([['a', 'b'], changed]);
      }
      const split = rows.map((row) => row.flatMap((c) => (typeof c === 'string' && c.length > 1 ? [c.slice(0, 1), c.slice(1)] : [c])));
      out.push([['a', 'b'], split]); // "ab" vs "a", "b"
      return out;
    };
    let equalPairs = 0;
    let differentPairs = 0;
    for (let i = 0; i < 600; i++) {
      const all = variants(randomRows(random, true));
      for (const [colsA, rowsA] of all) {
        for (const [colsB, rowsB] of all) {
          const refEqual = refHashResult(colsA, rowsA) === refHashResult(colsB, rowsB);
          const newEqual = hashResult(colsA, rowsA) === hashResult(colsB, rowsB);
          if (refEqual !== newEqual) expect.fail(`hash equality ${newEqual}, reference ${refEqual}: ${describeRows(rowsA)} vs ${describeRows(rowsB)}`);
          if (refEqual) equalPairs++;
          else differentPairs++;
        }
      }
    }
    expect(equalPairs).toBeGreaterThan(4000);
    expect(differentPairs).toBeGreaterThan(40_000);
  });

  it('no collisions among many distinct results, real and random', () => {
    const seen = new Map<string, string>();
    const refs = new Set<string>();
    const add = (columns: string[], rows: readonly (readonly unknown[])[]) => {
      const ref = refHashResult(columns, rows);
      refs.add(ref);
      const hash = hashResult(columns, rows);
      const before = seen.get(hash);
      if (before !== undefined && before !== ref) expect.fail(`collision: ${describeRows(rows)}`);
      seen.set(hash, ref);
    };
    for (const db of realResults()) {
      for (const rows of db.results) {
        add(['x'], rows);
        for (let i = 0; i < rows.length; i += 23) add(['x'], rows.slice(0, i)); // prefixes
      }
    }
    const random = rng(7);
    for (let i = 0; i < 30_000; i++) add(['a'], randomRows(random, true));
    for (let i = 0; i < 30_000; i++) add(['n'], [[i], [i * 0.5], [String(i)]]);
    // As many distinct hashes as distinct results (by the old hash): none merged.
    expect(seen.size).toBe(refs.size);
    expect(refs.size).toBeGreaterThan(40_000);
  });
});
