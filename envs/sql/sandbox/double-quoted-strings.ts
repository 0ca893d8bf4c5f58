import { identifierOf, tokenizeSql } from './sql-tokens.js';
import { quoteString } from './sql-quoting.js';

/**
 * SQLite's error when a double-quoted word resolves to no column. Legacy SQLite would have read
 * it as a string; the better-sqlite3 build disables that fallback (SQLITE_DQS=0), while a third
 * of Spider's gold queries rely on it (`WHERE name = "Paris"`).
 */
const DQS_ERROR = /^no such column: "(.*)" - should this be a string literal in single-quotes\?$/s;

/**
 * The unresolved name from SQLite's double-quoted-string error, or undefined for any other message.
 *
 * @example
 * ```ts
 * unresolvedDoubleQuoted('no such column: "Paris" - should this be a string literal in single-quotes?'); // 'Paris'
 * ```
 */
export function unresolvedDoubleQuoted(message: string): string | undefined {
  return DQS_ERROR.exec(message)?.[1];
}

/**
 * Rewrite every double-quoted token whose content equals `name` as a single-quoted string
 * literal: SQLite's own legacy rule (a double-quoted word that names no column is a string),
 * applied one unresolved name at a time. Returns undefined when no token matched.
 *
 * @example
 * ```ts
 * doubleQuotedToString('SELECT * FROM city WHERE name = "Paris"', 'Paris');
 * // "SELECT * FROM city WHERE name = 'Paris'"
 * ```
 */
export function doubleQuotedToString(sql: string, name: string): string | undefined {
  const lexed = tokenizeSql(sql);
  if (!lexed.ok) return undefined;
  let changed = false;
  const text = lexed.tokens
    .map((t) => {
      if (t.kind !== 'quoted' || !t.text.startsWith('"') || identifierOf(t) !== name) return t.text;
      changed = true;
      return quoteString(name);
    })
    .join('');
  return changed ? text : undefined;
}
