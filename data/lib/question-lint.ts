/**
 * Detects SQL leaking into question text: keywords written as SQL, operators, wildcards,
 * and snake_case identifiers (a person says "ticket price", not `ticket_price`).
 */

const SQL_PATTERNS: readonly { name: string; re: RegExp }[] = [
  { name: 'SQL keyword', re: /\b(SELECT|FROM|WHERE|JOIN|GROUP BY|ORDER BY|HAVING|INTERSECT|EXCEPT|UNION|LIMIT|COUNT\(|AVG\(|SUM\(|MIN\(|MAX\()/ },
  { name: 'select-from pattern', re: /\bselect\b[^?]*\bfrom\b[^?]*\bwhere\b/i },
  { name: 'operator', re: /[=*<>;`]|!=|\|\|/ },
  { name: 'snake_case identifier', re: /\b[a-z]+_[a-z_]+\b/ },
  { name: 'SQL string quote', re: /(^|\s)'[^']*'(\s|[?.,]|$)/ },
];

/**
 * The names of the SQL patterns found in a question (empty when it reads like plain English).
 *
 * @example
 * ```ts
 * sqlInQuestion('How many singers are there?');   // []
 * sqlInQuestion('SELECT COUNT(*) FROM singer');   // ['SQL keyword', 'operator', …]
 * ```
 */
export function sqlInQuestion(question: string): string[] {
  return SQL_PATTERNS.filter((p) => p.re.test(question)).map((p) => p.name);
}

/**
 * A question normalised for duplicate detection: lower case, single spaces, no punctuation.
 *
 * @example
 * ```ts
 * normalizeQuestion('How many  Singers?'); // 'how many singers'
 * ```
 */
export function normalizeQuestion(question: string): string {
  return question.toLowerCase().replace(/[^a-z0-9 ]+/g, ' ').replace(/\s+/g, ' ').trim();
}
