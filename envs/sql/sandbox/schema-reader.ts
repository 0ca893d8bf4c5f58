import { displayCell } from './cells.js';
import type { SqlCell } from './query-result.js';
import { openReadOnlyDatabase, type SqliteConnection } from './read-only-connection.js';

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
export class UnknownTableError extends Error {
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
 * `sqlite_master` before use and always quoted — and the connection is read-only.
 * Descriptions are cached per table; the owner closes the reader.
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
  private readonly descriptions = new Map<string, TableDescription>();

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

  /** Columns, foreign keys and row count of `table` (resolved with {@link resolveTable}). */
  describe(table: string): TableDescription {
    const name = this.requireTable(table);
    const cached = this.descriptions.get(name);
    if (cached) return structuredClone(cached);
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
    const description = { name, columns, foreignKeys, rowCount };
    this.descriptions.set(name, description);
    return structuredClone(description);
  }

  /**
   * The first `n` rows of `table` (n clamped to 0…100), cells rendered as the query pool renders
   * them and cut to `maxCellChars` characters.
   */
  sample(table: string, n: number, maxCellChars = 200): { columns: string[]; rows: SqlCell[][] } {
    const name = this.requireTable(table);
    const limit = Math.max(0, Math.min(100, Math.floor(Number.isFinite(n) ? n : 0)));
    const stmt = this.db.prepare(`SELECT * FROM ${quoteIdentifier(name)} LIMIT ?`);
    stmt.raw(true);
    stmt.safeIntegers(true);
    const columns = stmt.columns().map((c) => c.name);
    const rows = (stmt.all(limit) as unknown[][]).map((row) =>
      row.map((value) => displayCell(value, maxCellChars).cell),
    );
    return { columns, rows };
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

/** `name` as a double-quoted SQL identifier. */
function quoteIdentifier(name: string): string {
  return `"${name.split('"').join('""')}"`;
}
