import { tokenizeSql } from '../sandbox/sql-tokens.js';

/**
 * The values a SQL text writes: its string literals (unquoted, `''` unescaped, letter case kept)
 * and its numbers (canonical, so `3.50` and `3.5` are one value), as SQLite's tokenizer splits
 * them — identifiers, keywords and comments are not values. Empty when the text does not lex (an
 * unterminated string).
 *
 * @example
 * ```ts
 * sqlLiterals("SELECT name FROM t WHERE city = 'O''Hara' AND price < 3.50"); // ["O'Hara", '3.5']
 * ```
 */
export function sqlLiterals(sql: string): string[] {
  const lexed = tokenizeSql(sql);
  if (!lexed.ok) return [];
  const values: string[] = [];
  for (const token of lexed.tokens) {
    if (token.kind === 'string') values.push(token.text.slice(1, -1).split("''").join("'"));
    else if (token.kind === 'number') values.push(canonicalNumber(token.text));
  }
  return values;
}

/**
 * Whether `sql` writes every value of `goldLiterals` (see {@link sqlLiterals}): the measure of
 * whether an agent copied the question's names, dates and numbers into its query, whatever else
 * the query got wrong. Vacuously true for a gold query without literals.
 *
 * @example
 * ```ts
 * writesLiterals("SELECT count(*) FROM singer WHERE country = 'France'", ['France']); // true
 * writesLiterals("SELECT count(*) FROM singer WHERE country = 'france'", ['France']); // false
 * ```
 */
export function writesLiterals(sql: string, goldLiterals: readonly string[]): boolean {
  const written = new Set(sqlLiterals(sql));
  return goldLiterals.every((value) => written.has(value));
}

// Hex integers and exponents included: SQLite reads 0x10 as 16 and 1e2 as 100.0.
function canonicalNumber(text: string): string {
  const value = /^0x/i.test(text) ? Number.parseInt(text.slice(2), 16) : Number(text);
  return Number.isFinite(value) ? String(value) : text;
}
