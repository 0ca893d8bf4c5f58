/**
 * A read-only view of a generated database for question templates: tables with their
 * columns grouped by role, the foreign-key relations between them, and distinct values.
 */
import type { GeneratedDatabase } from '../populate.js';
import { primaryKeyOf, type ColumnSpec, type Row, type SqlValue, type TableSpec } from '../schema.js';
import { DataError } from '../../lib/data-error.js';

/** A table plus its columns grouped by what questions can do with them. */
export interface TableView {
  readonly spec: TableSpec;
  readonly name: string;
  readonly rows: readonly Row[];
  readonly key: ColumnSpec;
  /** The column naming a row, if the table has one. */
  readonly nameColumn?: ColumnSpec;
  /** Category columns with 2–20 distinct values. */
  readonly categories: readonly ColumnSpec[];
  readonly numbers: readonly ColumnSpec[];
  readonly dates: readonly ColumnSpec[];
}

/** `child.column` references `parent`'s primary key. */
export interface Relation {
  readonly child: TableView;
  readonly column: ColumnSpec;
  readonly parent: TableView;
}

/** `a` references `b`, which references `c`. */
export interface RelationPath {
  readonly first: Relation;
  readonly second: Relation;
}

/** The database as question templates see it. */
export class DbView {
  readonly id: string;
  readonly tables: readonly TableView[];
  readonly relations: readonly Relation[];
  private readonly distinctCache = new Map<string, SqlValue[]>();

  constructor(db: GeneratedDatabase) {
    this.id = db.spec.id;
    this.tables = db.spec.tables.map((spec) => {
      const rows = db.rows.get(spec.name) ?? [];
      const distinctCount = (c: ColumnSpec) => new Set(rows.map((r) => r[c.name]).filter((v) => v !== null)).size;
      const nameColumn = spec.columns.find((c) => c.role === 'name');
      return {
        spec, name: spec.name, rows, key: primaryKeyOf(spec),
        ...(nameColumn ? { nameColumn } : {}),
        categories: spec.columns.filter((c) => c.role === 'category' && distinctCount(c) >= 2 && distinctCount(c) <= 20),
        numbers: spec.columns.filter((c) => c.role === 'number'),
        dates: spec.columns.filter((c) => c.role === 'date'),
      };
    });
    const byName = new Map(this.tables.map((t) => [t.name, t]));
    this.relations = this.tables.flatMap((child) =>
      child.spec.columns
        .filter((c) => c.role === 'reference' && c.references)
        .map((column) => ({ child, column, parent: byName.get(column.references!)! })),
    );
  }

  /** The view of a table by name. */
  table(name: string): TableView {
    const t = this.tables.find((x) => x.name === name);
    if (!t) throw new DataError(`${this.id} has no table ${name}`);
    return t;
  }

  /** Distinct non-null values of a column, in first-seen order. */
  distinct(table: TableView, column: ColumnSpec): SqlValue[] {
    const cacheKey = `${table.name}.${column.name}`;
    let values = this.distinctCache.get(cacheKey);
    if (!values) {
      values = [...new Set(table.rows.map((r) => r[column.name] ?? null).filter((v) => v !== null))];
      this.distinctCache.set(cacheKey, values);
    }
    return values;
  }

  /** Relations whose parent has a name column (so questions can name the parent). */
  namedRelations(): Relation[] {
    return this.relations.filter((r) => r.parent.nameColumn);
  }

  /** Two-step reference chains a → b → c (c named), for multi-join questions. */
  paths(): RelationPath[] {
    return this.relations.flatMap((first) =>
      this.relations
        .filter((second) => second.child === first.parent && second.parent !== first.child && second.parent.nameColumn)
        .map((second) => ({ first, second })),
    );
  }
}
