/**
 * An action (or part of one) as JSON text for keys and labels, never throwing: bigints are
 * written as their digits, values JSON cannot hold (functions, symbols) are dropped as
 * `JSON.stringify` drops them, and anything still unserialisable (a cycle, a throwing getter)
 * becomes `String(value)` or, failing that, a fixed placeholder. The text is cut to `maxChars`.
 *
 * Callers pass values that passed `checkActionShape`, so serialisation is bounded in depth and
 * size; the fallbacks are for values that did not (a key must still be computed for them).
 *
 * @example
 * ```ts
 * actionText({ value: [1n, 'a'] }); // '{"value":["1","a"]}'
 * actionText('x'.repeat(10), 4);    // 'xxxx'
 * ```
 */
export function actionText(value: unknown, maxChars = 4000): string {
  if (typeof value === 'string') return value.slice(0, maxChars);
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  } catch {
    text = undefined;
  }
  if (text === undefined) {
    try {
      text = String(value);
    } catch {
      text = '<unreadable value>';
    }
  }
  return text.slice(0, maxChars);
}
