import { DataError } from './data-error.js';

/**
 * The "shape" of a SQL query: its structure with every literal replaced by `?` and every
 * identifier (table, column, alias) by `_`, keywords and function names upper-cased, spaces
 * normalised. Two questions share a shape when only the schema and the values differ, so
 * the number of distinct shapes measures how many kinds of SQL a dataset asks for.
 */

const KEYWORDS = new Set([
  'SELECT', 'FROM', 'WHERE', 'AND', 'OR', 'NOT', 'IN', 'IS', 'NULL', 'AS', 'JOIN', 'INNER', 'LEFT', 'RIGHT', 'OUTER',
  'CROSS', 'NATURAL', 'USING', 'ON', 'GROUP', 'BY', 'ORDER', 'HAVING', 'LIMIT', 'OFFSET', 'ASC', 'DESC', 'DISTINCT',
  'UNION', 'ALL', 'INTERSECT', 'EXCEPT', 'BETWEEN', 'LIKE', 'GLOB', 'EXISTS', 'CASE', 'WHEN', 'THEN', 'ELSE', 'END',
  'CAST', 'WITH', 'COUNT', 'SUM', 'AVG', 'MIN', 'MAX', 'ROUND', 'ABS', 'STRFTIME', 'JULIANDAY', 'DATE', 'LENGTH',
  'LOWER', 'UPPER', 'SUBSTR', 'COALESCE', 'IFNULL', 'TOTAL', 'INTEGER', 'REAL', 'TEXT',
]);

const TOKEN = /\s*(?:('(?:[^']|'')*')|("(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\])|(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|(<=|>=|<>|!=|==|\|\||[-+*/%=<>(),.;]))/y;

/** The SQL could not be tokenised. */
export class SqlShapeError extends DataError {
  override readonly name = 'SqlShapeError';
}

/**
 * The shape of a query.
 *
 * @example
 * ```ts
 * sqlShape("SELECT name FROM singer WHERE age > 30");
 * // 'SELECT _ FROM _ WHERE _ > ?'
 * sqlShape("select T1.name from song as T1 where T1.genre = 'Jazz'");
 * // 'SELECT _._ FROM _ AS _ WHERE _._ = ?'
 * ```
 */
export function sqlShape(sql: string): string {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  const text = sql.trim().replace(/;\s*$/, '');
  while (TOKEN.lastIndex < text.length) {
    const start = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) throw new SqlShapeError(`cannot read SQL at "${text.slice(start, start + 20)}" in: ${sql}`);
    const [, str, quotedIdent, num, word, op] = m;
    if (str !== undefined || num !== undefined) out.push('?');
    else if (quotedIdent !== undefined) out.push('_');
    else if (word !== undefined) out.push(KEYWORDS.has(word.toUpperCase()) ? word.toUpperCase() : '_');
    else if (op !== undefined) out.push(op === '<>' ? '!=' : op === '==' ? '=' : op);
  }
  return out.join(' ').replace(/ ?\. ?/g, '.').replace(/([A-Z]+) \(/g, '$1(').replace(/\( /g, '(').replace(/ \)/g, ')').replace(/ ,/g, ',');
}
