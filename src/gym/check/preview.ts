/**
 * A short, single-line rendering of any value for check messages: JSON where possible (falling
 * back to `String()` for cycles, BigInts and the like), cut to `maxLength` characters so a huge
 * observation cannot flood the error.
 */
export function preview(x: unknown, maxLength: number): string {
  let text: string;
  try {
    text = JSON.stringify(x) ?? String(x);
  } catch {
    text = String(x);
  }
  return text.length > maxLength ? `${text.slice(0, maxLength - 3)}...` : text;
}
