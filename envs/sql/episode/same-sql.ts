/**
 * Whether two SQL texts are one query written twice: equal once runs of whitespace are one space,
 * the ends trimmed and a final semicolon dropped. Letter case counts, since it counts inside
 * literals ('Paris' is not 'paris'). What the `answer_repeats_query` outcome compares: an answer
 * that repeats the query whose result it read, against one written afresh.
 *
 * @example
 * sameSql('SELECT  name FROM t;', 'SELECT name FROM t'); // true
 */
export function sameSql(a: string, b: string): boolean {
  const canonical = (sql: string): string => sql.replace(/\s+/g, ' ').trim().replace(/\s*;$/, '');
  return canonical(a) === canonical(b);
}
