/**
 * Whether a SQL statement has an ORDER BY at its top level (not inside a subquery), which is
 * when Spider's evaluation compares rows in order.
 *
 * @example
 * ```ts
 * hasTopLevelOrderBy('SELECT name FROM singer ORDER BY age');                  // true
 * hasTopLevelOrderBy('SELECT * FROM (SELECT a FROM t ORDER BY a) GROUP BY a'); // false
 * ```
 */
export function hasTopLevelOrderBy(sql: string): boolean {
  const code = sql
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/"(?:[^"]|"")*"/g, '""')
    .replace(/`[^`]*`/g, '``')
    .replace(/\[[^\]]*\]/g, '[]')
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ');
  let depth = 0;
  let topLevel = '';
  for (const ch of code) {
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0) topLevel += ch;
  }
  return /\border\s+by\b/i.test(topLevel);
}
