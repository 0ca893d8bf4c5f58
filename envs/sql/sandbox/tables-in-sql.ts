import { identifierOf, tokenizeSql } from './sql-tokens.js';

/**
 * Tables of a database that a SQL text names, in the database's order: identifiers (bare or
 * quoted) matched case-insensitively against `tableNames`; strings and comments ignored.
 *
 * @example
 * ```ts
 * tablesInSql('SELECT T1.name FROM Singer AS T1 JOIN concert AS T2 ON …', ['concert', 'singer', 'stadium']);
 * // ['concert', 'singer']
 * ```
 */
export function tablesInSql(sql: string, tableNames: readonly string[]): string[] {
  const lexed = tokenizeSql(sql);
  if (!lexed.ok) return [];
  const named = new Set<string>();
  for (const token of lexed.tokens) {
    const name = identifierOf(token);
    if (name !== undefined) named.add(name.toLowerCase());
  }
  return tableNames.filter((t) => named.has(t.toLowerCase()));
}
