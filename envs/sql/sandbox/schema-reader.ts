import { displayCell } from './cells.js';
import type { SqlCell } from './query-result.js';
import { openReadOnlyDatabase, type SqliteConnection } from './read-only-connection.js';
import { SqlEnvError } from '../sql-env-error.js';
import { quoteIdentifier } from './sql-quoting.js';

/** Sample results kept per reader (table × n × cell cap); each is at most 100 rows. */
const MAX_CACHED_SAMPLES = 256;

/** One column of a table, from `PRAGMA table_info`. */
export interface ColumnDescription {
  name: string;
  /** Declared type as written in the schema (may be empty: SQLite columns need no type). */
  type: string;
  notNull: boolean;
  primaryKey: boolean;
  /** The default value's SQL text, or null. */
  defaultValue: string | null;
}

/** One foreign key column of a table. */
export interface ForeignKeyDescription {
  column: string;
  refTable: string;
  /** The referenced column (the referenced table's primary key when the schema omits it). */
  refColumn: string;
}

/** What `describe(table)` reports. */
export interface TableDescription {
  name: string;
  columns: ColumnDescription[];
  foreignKeys: ForeignKeyDescription[];
  rowCount: number;
}

/**
 * Thrown by {@link SchemaReader.describe} and {@link SchemaReader.sample} for a table that does
 * not exist; `tables` lists those that do.
 *
 * @example
 * ```ts
 * try { reader.describe('singers'); }
 * catch (e) { if (e instanceof UnknownTableError) console.log(e.tables); }
 * ```
 */
export class UnknownTableError extends SqlEnvError {
  override readonly name = 'UnknownTableError';

  constructor(
    readonly table: string,
    readonly tables: readonly string[],
  ) {
    super(`no table named "${table}". Tables: ${tables.join(', ') || '(none)'}.`);
  }
}

/**
 * Reads a database's schema and sample rows in-process, for the `describe` and `sample` tools.
 * Safe without the query pool: it never runs agent SQL — table names are resolved against
 * `sqlite_master` before use and always quoted — and the connection is read-only. Every statement
 * is bounded (a `LIMIT` of at most 100 rows, or the schema pragmas) and prepared once per table;
 * descriptions and samples are cached (the database is read-only, so they never change) and
 * returned frozen: a `describe` or `sample` step after the first costs no SQLite work at all.
 * The owner closes the reader.
 *
 * @example
 * ```ts
 * const schema = SchemaReader.open('concert_singer.sqlite');
 * const singer = schema.resolveTable('SINGER');            // 'singer'
 * if (singer) console.log(schema.describe(singer).columns.map((c) => c.name));
 * schema.close();
 * ```
 */
export class SchemaReader {
  private readonly db: SqliteConnection;
  private tableNames: string[] | undefined;
  private readonly descriptions = new Map<string, Readonly<TableDescription>>();
  private readonly sampleStatements = new Map<string, ReturnType<SqliteConnection['prepare']>>();
  private readonly samples = new Map<string, Readonly<{ columns: string[]; rows: SqlCell[][] }>>();

  /** Open `dbPath` read-only. Throws SqlSandboxError (`sql_error`) when it cannot be opened. */
  static open(dbPath: string): SchemaReader {
    return new SchemaReader(dbPath);
  }

  constructor(readonly dbPath: string) {
    this.db = openReadOnlyDatabase(dbPath);
  }

  /** User tables in schema order (SQLite's internal `sqlite_*` tables excluded). */
  tables(): string[] {
    this.tableNames ??= this.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
      .pluck()
      .all() as string[];
    return [...this.tableNames];
  }

  /**
   * The exact name of the table `name` refers to: case-insensitive, surrounding quotes,
   * brackets, backticks, whitespace and a `main.` prefix ignored. Undefined if there is none.
   */
  resolveTable(name: string): string | undefined {
    let wanted = String(name).trim();
    if (/^main\./i.test(wanted)) wanted = wanted.slice(5);
    wanted = wanted.replace(/^["'`[]+|["'`\]]+$/g, '').trim().toLowerCase();
    return this.tables().find((t) => t.toLowerCase() === wanted);
  }

  /** Columns, foreign keys and row count of `table` (resolved with {@link resolveTable}); cached and frozen. */
  describe(table: string): Readonly<TableDescription> {
    const name = this.requireTable(table);
    const cached = this.descriptions.get(name);
    if (cached) return cached;
    const quoted = quoteIdentifier(name);
    const info = this.db.prepare(`SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)`).all(name) as {
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
    }[];
    const columns: ColumnDescription[] = info.map((c) => ({
      name: c.name,
      type: c.type,
      notNull: c.notnull !== 0,
      primaryKey: c.pk !== 0,
      defaultValue: c.dflt_value,
    }));
    const keys = this.db.prepare('SELECT "from", "table", "to" FROM pragma_foreign_key_list(?)').all(name) as {
      from: string;
      table: string;
      to: string | null;
    }[];
    const foreignKeys = keys.map((k) => ({
      column: k.from,
      refTable: this.resolveTable(k.table) ?? k.table,
      refColumn: k.to ?? this.primaryKeyOf(k.table) ?? k.from,
    }));
    const rowCount = Number(this.db.prepare(`SELECT count(*) FROM ${quoted}`).pluck().get());
    const description = deepFreeze({ name, columns, foreignKeys, rowCount });
    this.descriptions.set(name, description);
    return description;
  }

  /**
   * The first `n` rows of `table` (n clamped to 0…100), cells rendered as the query pool renders
   * them and cut to `maxCellChars` characters; cached and frozen.
   */
  sample(table: string, n: number, maxCellChars = 200): Readonly<{ columns: string[]; rows: SqlCell[][] }> {
    const name = this.requireTable(table);
    const limit = Math.max(0, Math.min(100, Math.floor(Number.isFinite(n) ? n : 0)));
    const key = `${limit}:${maxCellChars}:${name}`;
    const cached = this.samples.get(key);
    if (cached) return cached;
    let stmt = this.sampleStatements.get(name);
    if (!stmt) {
      stmt = this.db.prepare(`SELECT * FROM ${quoteIdentifier(name)} LIMIT ?`);
      stmt.raw(true);
      stmt.safeIntegers(true);
      this.sampleStatements.set(name, stmt);
    }
    const columns = stmt.columns().map((c) => c.name);
    const rows = (stmt.all(limit) as unknown[][]).map((row) =>
      row.map((value) => displayCell(value, maxCellChars).cell),
    );
    const sample = deepFreeze({ columns, rows });
    if (this.samples.size >= MAX_CACHED_SAMPLES) this.samples.delete(this.samples.keys().next().value!);
    this.samples.set(key, sample);
    return sample;
  }

  /** Close the connection. Idempotent. */
  close(): void {
    if (this.db.open) this.db.close();
  }

  private requireTable(table: string): string {
    const name = this.resolveTable(table);
    if (name === undefined) throw new UnknownTableError(String(table), this.tables());
    return name;
  }

  private primaryKeyOf(table: string): string | undefined {
    const pk = this.db.prepare('SELECT name FROM pragma_table_info(?) WHERE pk = 1').pluck().get(table);
    return typeof pk === 'string' ? pk : undefined;
  }
}

/** Freeze an object and everything it holds (plain objects and arrays), so a shared cache entry cannot be changed. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as object)) deepFreeze(child);
  }
  return value;
}
