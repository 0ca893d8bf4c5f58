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
  if (typeof value === 'string') return normaliseText(value);
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  if (typeof value === 'object') return normaliseText(JSON.stringify(value));
  return normaliseText(String(value));
}

function normaliseText(raw: string): Cell {
  const plain = plainText(raw);
  if (plain !== undefined) return plain;
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

/**
 * The fast path of {@link normaliseText}, with the same result: text that needs no trimming,
 * unquoting or whitespace collapsing and has no currency sign or `%` is only tested for NULL
 * and for a number (when its characters could form one) and lower-cased. Anything else
 * (surrounding or repeated whitespace, tabs, newlines, Unicode spaces, a leading quote or
 * currency sign, `%`) returns undefined for the general path.
 */
function plainText(s: string): Cell | undefined {
  const n = s.length;
  if (n === 0) return '';
  const first = s.charCodeAt(0);
  // A leading quote or currency sign: the general path.
  if (first === 34 || first === 39 || first === 96 || first === 36 || first === 0x20ac || first === 0xa3 || first === 0xa5) return undefined;
  let digit = false;
  /** Only characters NUMBER_TEXT allows, with a sign only first or after an exponent mark. */
  let numberish = true;
  /** Needs lower-casing: an ASCII capital or any non-ASCII character. */
  let fold = false;
  let prev = 32; // so that a leading space counts as a repeated one
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) digit = true;
    else if (c >= 97 && c <= 122) {
      if (c !== 101) numberish = false;
    } else if (c >= 65 && c <= 90) {
      fold = true;
      if (c !== 69) numberish = false;
    } else if (c === 32) {
      if (prev === 32) return undefined;
      numberish = false;
    } else if (c === 43 || c === 45) {
      if (i > 0 && prev !== 101 && prev !== 69) numberish = false;
    } else if (c === 44 || c === 46) {
      // ',' and '.' may be part of a number
    } else if (c < 32 || c === 37) {
      return undefined; // control characters (tabs, newlines, …) and '%'
    } else if (c >= 127) {
      if (c === 0x7f) numberish = false;
      else if (mayBeSpace(c)) return undefined;
      else {
        fold = true;
        numberish = false;
      }
    } else numberish = false;
    prev = c;
  }
  if (prev === 32) return undefined; // a trailing space
  if (n === 4 && /^null$/i.test(s)) return null;
  if (digit && numberish && NUMBER_TEXT.test(s)) {
    const x = Number(s.replace(/,/g, ''));
    if (Number.isFinite(x)) return x;
  }
  return fold ? s.toLowerCase() : s;
}

/** Non-ASCII characters that `trim()` or `\s` may treat as whitespace (a superset, to be safe). */
function mayBeSpace(c: number): boolean {
  return (
    c === 0x85 || c === 0xa0 || c === 0x1680 || c === 0x180e || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}
