/** Significant digits a non-integer keeps when shown (never fewer than {@link MIN_DECIMALS} decimals). */
const SIGNIFICANT_DIGITS = 6;
/** Decimals a non-integer always keeps, so that 1234567.891 shows as 1234567.89, not 1234570. */
const MIN_DECIMALS = 2;
/** Below this magnitude `toFixed` would need more than 100 digits: keep significant digits instead. */
const TINY = 1e-90;

/**
 * A number rounded to the precision SQLEnv shows it with: integers exactly; other numbers to six
 * significant digits but at least two decimals (1326.4166… → 1326.42, 18.333… → 18.3333,
 * 109915.387… → 109915.39, 0.00123456789 → 0.00123457). The judge compares numbers at this
 * precision, so a model that copies a displayed value is right and any other value is wrong.
 *
 * @example
 * ```ts
 * roundForDisplay(1326.4166666666667); // 1326.42
 * roundForDisplay(42);                 // 42
 * ```
 */
export function roundForDisplay(x: number): number {
  if (Number.isInteger(x) || !Number.isFinite(x)) return x;
  const magnitude = Math.abs(x);
  if (magnitude < TINY) return Number(x.toPrecision(SIGNIFICANT_DIGITS));
  const decimals = Math.max(MIN_DECIMALS, SIGNIFICANT_DIGITS - 1 - Math.floor(Math.log10(magnitude)));
  // toFixed takes at most 100 decimals; TINY keeps `decimals` below that.
  return Number(x.toFixed(decimals));
}

/**
 * The text SQLEnv shows for a number: {@link roundForDisplay}, written the shortest way
 * (`String`), so trailing zeros never appear (133.5, not 133.500).
 *
 * @example
 * ```ts
 * displayNumber(1326.4166666666667); // '1326.42'
 * displayNumber(133.5);              // '133.5'
 * ```
 */
export function displayNumber(x: number): string {
  return String(roundForDisplay(x));
}
