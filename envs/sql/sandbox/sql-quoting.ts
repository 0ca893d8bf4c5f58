/**
 * SQL quoting of names and text, for SQL the environment writes itself (never for screening agent SQL).
 */

/**
 * `name` as a double-quoted SQL identifier (inner `"` doubled).
 *
 * @example
 * ```ts
 * quoteIdentifier('my "table"'); // '"my ""table"""'
 * ```
 */
export function quoteIdentifier(name: string): string {
  return `"${name.split('"').join('""')}"`;
}

/**
 * `text` as a single-quoted SQL string literal (inner `'` doubled).
 *
 * @example
 * ```ts
 * quoteString("Stark's Park"); // "'Stark''s Park'"
 * ```
 */
export function quoteString(text: string): string {
  return `'${text.split("'").join("''")}'`;
}
