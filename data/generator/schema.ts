/**
 * How a domain describes its database: tables, columns, how each column's values are made,
 * and the natural-language names questions use for them. The question templates read the
 * column roles (category, number, date, name, reference) to know what they can ask about.
 */
import type { Rng } from '../../src/base/rng.js';
import type { QuestionTemplate } from './questions/template.js';
import { DataError } from '../lib/data-error.js';

/** A value stored in a cell. Dates are ISO `YYYY-MM-DD` text. */
export type SqlValue = string | number | null;

/** One generated row, keyed by column name. */
export type Row = Record<string, SqlValue>;

/**
 * What a column means to a question writer:
 * - `key`: the primary key (integer id or short code);
 * - `reference`: a foreign key to another table's primary key;
 * - `name`: the human identifier of a row (unique within its table);
 * - `category`: a small set of repeated values (genre, status, city);
 * - `number`: a measured quantity (price, age, minutes);
 * - `date`: an ISO date;
 * - `text`: free text nobody filters on (addresses, notes).
 */
export type ColumnRole = 'key' | 'reference' | 'name' | 'category' | 'number' | 'date' | 'text';

/** Declared SQLite type. `DATE` columns hold ISO text. */
export type SqlType = 'INTEGER' | 'REAL' | 'TEXT' | 'DATE';

/** What a value generator sees while a row is being made. */
export interface RowContext {
  readonly rng: Rng;
  /** 0-based position of the row in its table. */
  readonly index: number;
  /** Columns of this row generated so far (columns are generated left to right). */
  readonly row: Row;
  /** A uniformly chosen primary key of an already generated table. */
  pick(table: string): SqlValue;
  /** A column of an already generated table's row, looked up by primary key. */
  lookup(table: string, key: SqlValue, column: string): SqlValue;
}

/** A column: its SQL declaration, its meaning, and how its values are generated. */
export interface ColumnSpec {
  readonly name: string;
  readonly sqlType: SqlType;
  readonly role: ColumnRole;
  /** Natural-language name, e.g. `ticket price`. */
  readonly label: string;
  /** For `reference` columns: the referenced table (its primary key column). */
  readonly references?: string;
  /** Wrap values in double quotes when a question mentions them (titles). */
  readonly quoted?: boolean;
  /** Prefix for amounts of money, e.g. `$`. */
  readonly currency?: string;
  /** The relative clause a question uses to filter on a category value, e.g. `v => \`in ${v}\``. */
  readonly phrase?: (value: string) => string;
  /** For numbers: whether a total (SUM) means something; false for years, ratings, unit prices. */
  readonly summable?: boolean;
  /** Whether the column may hold NULL (generated values may then be null). */
  readonly nullable: boolean;
  /** Values must not repeat within the table (names); generation retries on collisions. */
  readonly unique: boolean;
  readonly generate: (ctx: RowContext) => SqlValue;
}

/** A table and how many rows to generate. */
export interface TableSpec {
  readonly name: string;
  /** Natural-language singular and plural nouns for one row, e.g. `patient`, `patients`. */
  readonly singular: string;
  readonly plural: string;
  readonly rowCount: number;
  readonly columns: readonly ColumnSpec[];
  /** Column combinations that must be unique (link tables); generation retries on collisions. */
  readonly uniqueTogether?: readonly string[];
}

/** A whole domain: one database plus its own question templates. */
export interface DomainSpec {
  /** The database id (`db_id`), snake_case. */
  readonly id: string;
  /** A one-line description for the data card. */
  readonly summary: string;
  /** Tables in generation order: referenced tables come before the tables that reference them. */
  readonly tables: readonly TableSpec[];
  /** Hand-written templates that only make sense for this domain. */
  readonly templates: readonly QuestionTemplate[];
}

/** The primary key column of a table (the first `key` column). */
export function primaryKeyOf(table: TableSpec): ColumnSpec {
  const key = table.columns.find((c) => c.role === 'key');
  if (!key) throw new DataError(`table ${table.name} has no key column; give it one built with key()`);
  return key;
}
