/**
 * Turning schema metadata and values into English and SQL literals: how a value is said in a
 * question ("$45.50", "March 4, 2021", "\"Blue Harbor\""), how a filter reads ("whose genre is
 * Jazz"), and how thresholds are rounded so that questions quote numbers a person would pick.
 */
import type { Rng } from '../../../src/base/rng.js';
import type { ColumnSpec, SqlValue } from '../schema.js';
import { MONTHS } from '../words.js';
import type { TableView } from './db-view.js';

/**
 * A SQL literal for a value: strings single-quoted with quotes doubled, numbers as written.
 *
 * @example
 * ```ts
 * sqlLiteral("O'Brien"); // "'O''Brien'"
 * ```
 */
export function sqlLiteral(value: SqlValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') return String(value);
  return `'${value.replace(/'/g, "''")}'`;
}

/**
 * An ISO date as people write it.
 *
 * @example
 * ```ts
 * humanDate('2021-03-04'); // 'March 4, 2021'
 * ```
 */
export function humanDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return `${MONTHS[(m ?? 1) - 1]} ${d}, ${y}`;
}

/**
 * How a question mentions a value of a column.
 *
 * @example
 * ```ts
 * say(priceColumn, 45.5); // '$45.50'
 * ```
 */
export function say(column: ColumnSpec, value: SqlValue): string {
  if (value === null) return 'unknown';
  if (column.role === 'date' && typeof value === 'string') return humanDate(value);
  if (typeof value === 'number') {
    if (column.currency) return `${column.currency}${Number.isInteger(value) ? value : value.toFixed(2)}`;
    return String(value);
  }
  return column.quoted ? `"${value}"` : value;
}

/**
 * The relative clause for "rows whose category is v".
 *
 * @example
 * ```ts
 * categoryClause(genreColumn, 'Jazz'); // 'whose genre is Jazz' (or the column's own phrase)
 * ```
 */
export function categoryClause(column: ColumnSpec, value: SqlValue): string {
  const v = String(value);
  return column.phrase ? column.phrase(v) : `whose ${column.label} is ${say(column, value)}`;
}

/**
 * "the patient Maria Lopez", "the movie \"Blue Harbor\"".
 *
 * @example
 * ```ts
 * theEntity(patientTable, 'Maria Lopez'); // 'the patient Maria Lopez'
 * ```
 */
export function theEntity(table: TableView, value: SqlValue): string {
  return `the ${table.spec.singular} ${table.nameColumn ? say(table.nameColumn, value) : String(value)}`;
}

/**
 * A number a person would choose near a quantile of the values: two significant digits.
 *
 * @example
 * ```ts
 * roundThreshold(1234.5); // 1200
 * ```
 */
export function roundThreshold(value: number): number {
  if (value === 0) return 0;
  const magnitude = 10 ** (Math.floor(Math.log10(Math.abs(value))) - 1);
  return Number((Math.round(value / magnitude) * magnitude).toPrecision(2));
}

/**
 * A round threshold taken between the 20th and 80th percentile of the values, so a filter
 * on it keeps some rows and drops others.
 *
 * @example
 * ```ts
 * threshold([1, 5, 9, 40, 120], new Rng(0)); // e.g. 9
 * ```
 */
export function threshold(values: readonly SqlValue[], rng: Rng): number {
  const nums = values.filter((v): v is number => typeof v === 'number').sort((a, b) => a - b);
  if (nums.length === 0) return 0;
  const q = 0.2 + rng.float() * 0.6;
  const picked = nums[Math.min(nums.length - 1, Math.floor(q * nums.length))]!;
  return roundThreshold(picked);
}

/**
 * One of several phrasings, chosen by the template's generator.
 *
 * @example
 * ```ts
 * phrase(rng, [`How many ${p} are there?`, `Count the ${p}.`]);
 * ```
 */
export function phrase(rng: Rng, options: readonly string[]): string {
  return rng.choice(options);
}

/**
 * Up to `n` items drawn without replacement.
 *
 * @example
 * ```ts
 * sampleSome(rng, ['a', 'b', 'c'], 2); // e.g. ['c', 'a']
 * ```
 */
export function sampleSome<T>(rng: Rng, items: readonly T[], n: number): T[] {
  return rng.shuffle(items).slice(0, n);
}

/**
 * The first letter in upper case.
 *
 * @example
 * ```ts
 * capitalize('how many'); // 'How many'
 * ```
 */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The plural of a label: `genre` → `genres`, `city` → `cities`, `status` → `statuses`.
 *
 * @example
 * ```ts
 * pluralize('blood type'); // 'blood types'
 * ```
 */
export function pluralize(label: string): string {
  if (/(s|x|ch|sh)$/.test(label)) return `${label}es`;
  if (/[^aeiou]y$/.test(label)) return `${label.slice(0, -1)}ies`;
  return `${label}s`;
}

/**
 * How a question points at child rows through a foreign key: "for the doctor Ana Silva" when
 * the key is simply the parent, otherwise "whose origin is LIS".
 *
 * @example
 * ```ts
 * parentClause(appointmentToDoctor, 'Ana Silva'); // 'for the doctor Ana Silva'
 * ```
 */
export function parentClause(rel: { column: ColumnSpec; parent: TableView }, value: SqlValue): string {
  const name = rel.parent.nameColumn ? say(rel.parent.nameColumn, value) : String(value);
  return rel.column.label === rel.parent.spec.singular
    ? `for ${theEntity(rel.parent, value)}`
    : `whose ${rel.column.label} is ${name}`;
}

/**
 * `AND col IS NOT NULL`-style guard for nullable columns, or nothing.
 *
 * @example
 * ```ts
 * notNullGuard(nullableColumn, 'T1'); // 'T1.rating IS NOT NULL'
 * ```
 */
export function notNullGuard(column: ColumnSpec, alias?: string): string | undefined {
  return column.nullable ? `${alias ? `${alias}.` : ''}${column.name} IS NOT NULL` : undefined;
}

/**
 * Join conditions into a WHERE clause (empty when there are none).
 *
 * @example
 * ```ts
 * where(['a = 1', undefined, 'b > 2']); // ' WHERE a = 1 AND b > 2'
 * ```
 */
export function where(conditions: readonly (string | undefined)[]): string {
  const present = conditions.filter((c): c is string => Boolean(c));
  return present.length ? ` WHERE ${present.join(' AND ')}` : '';
}

/**
 * A noun phrase with its indefinite article.
 *
 * @example
 * ```ts
 * an('age');   // 'an age'
 * an('price'); // 'a price'
 * ```
 */
export function an(noun: string): string {
  // 'u' sounds like 'you' in user, unit, utility: those take 'a'.
  const vowelSound = /^[aeio]/i.test(noun) || (/^u/i.test(noun) && !/^u(s|ni|ti)/i.test(noun));
  return vowelSound ? `an ${noun}` : `a ${noun}`;
}

/**
 * The role a parent plays for its children when the foreign key names a role rather than the
 * parent itself: "games as home team", "flights as origin airport"; empty otherwise.
 *
 * @example
 * ```ts
 * `Which team has the most games${asRole(gameToHomeTeam)}?`; // '… most games as home team?'
 * ```
 */
export function asRole(rel: { column: ColumnSpec; parent: TableView }): string {
  return rel.column.label === rel.parent.spec.singular ? '' : ` as ${rel.column.label}`;
}

/**
 * A verb phrase saying a row has a category value: the column's own phrase after "are"
 * ("are in Lisbon"), or "have Jazz as their genre".
 *
 * @example
 * ```ts
 * `How many artists ${categoryPredicate(genreColumn, 'Jazz')}?`; // 'How many artists have Jazz as their genre?'
 * ```
 */
export function categoryPredicate(column: ColumnSpec, value: SqlValue): string {
  return column.phrase ? `are ${column.phrase(String(value))}` : `have ${say(column, value)} as their ${column.label}`;
}
