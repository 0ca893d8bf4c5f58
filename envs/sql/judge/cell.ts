/** A result cell after normalisation: SQL NULL, a number, or normalised text. */
export type Cell = null | number | string;

/** How close two numbers must be to count as equal (used when either is not an integer). */
export interface FloatTolerance {
  /** Allowed difference relative to the larger magnitude (0.01 = 1%). */
  relative: number;
  /** Allowed absolute difference, for values near zero. */
  absolute: number;
}

const NUMBER_TEXT = /^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:e[+-]?\d+)?$/i;
const CURRENCY = /^[$€£¥]\s*/;

/**
 * Normalise one value for comparison: numbers stay numbers (booleans are 1/0 as in SQLite),
 * numeric text becomes a number (`"1,234"` → 1234, `"42.0"` → 42, `"$5"` → 5, `"45%"` → 45),
 * `"null"` becomes NULL, and other text is trimmed, lower-cased, whitespace-collapsed and
 * stripped of surrounding quotes.
 *
 * @example
 * ```ts
 * normaliseCell(' "Paris" '); // 'paris'
 * normaliseCell('1,234');    // 1234
 * normaliseCell(true);       // 1
 * ```
 */
export function normaliseCell(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isNaN(value) ? null : value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  if (typeof value === 'object') return normaliseText(JSON.stringify(value));
  return normaliseText(String(value));
}

function normaliseText(raw: string): Cell {
  let text = raw.trim();
  for (let i = 0; i < 2; i++) {
    const quoted = /^(["'`])([\s\S]*)\1$/.exec(text);
    if (quoted) text = quoted[2]!.trim();
  }
  if (/^null$/i.test(text)) return null;
  const numeric = text.replace(CURRENCY, '').replace(/%$/, '').trim();
  if (numeric !== '' && /\d/.test(numeric) && NUMBER_TEXT.test(numeric)) {
    const n = Number(numeric.replace(/,/g, ''));
    if (Number.isFinite(n)) return n;
  }
  return text.toLowerCase().replace(/\s+/g, ' ');
}

/**
 * Whether two normalised cells are equal: NULL equals NULL; two integers must be equal exactly;
 * otherwise numbers are compared within `tolerance`; text exactly (it is already normalised).
 *
 * @example
 * ```ts
 * cellsEqual(33.333, 33.3, { relative: 0.01, absolute: 1e-9 }); // true
 * cellsEqual(1000, 1005, { relative: 0.01, absolute: 1e-9 });   // false: both integers
 * ```
 */
export function cellsEqual(a: Cell, b: Cell, tolerance: FloatTolerance): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isInteger(a) && Number.isInteger(b)) return false;
    const diff = Math.abs(a - b);
    return diff <= tolerance.absolute || diff <= tolerance.relative * Math.max(Math.abs(a), Math.abs(b));
  }
  return false;
}

/**
 * A total order on cells (NULL < numbers < text), so bags can be compared by sorting.
 *
 * @example
 * ```ts
 * [3, null, 'a', 1].sort(compareCells); // [null, 1, 3, 'a']
 * ```
 */
export function compareCells(a: Cell, b: Cell): number {
  const rank = (c: Cell) => (c === null ? 0 : typeof c === 'number' ? 1 : 2);
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return 0;
}
