/**
 * What SQLEnv found when a call went wrong or a query found nothing, as data: an agent, a guide, the server's JSON and
 * the Python client read these fields, never the text rendered from them (`renderFeedback`, the one renderer). A step's
 * `info.feedback` lists them, in the order the text shows them.
 */

/** A table the database does not have (a query's FROM, or a `describe`/`sample` call's `table_name`). */
export interface UnknownTableFeedback {
  readonly kind: 'unknown_table';
  /** The name as the agent wrote it (its first 200 characters; a query's as SQLite reports it). */
  readonly table: string;
  /** The database's tables; null where the schema could not be read. */
  readonly tables: readonly string[] | null;
  /** For a tool call: the listed table whose name is closest to the one asked for (a hint, not a repair). */
  readonly closest?: string;
  /** The tool whose `table_name` named it; absent for a query. */
  readonly tool?: 'describe' | 'sample';
}

/** The columns of one table a query names, as an unknown-column error lists them. */
export interface TableColumns {
  readonly table: string;
  /** Its first columns, in table order. */
  readonly columns: readonly string[];
  /** How many more columns the table has than are listed. */
  readonly more: number;
}

/** A column that none of a query's tables has. */
export interface UnknownColumnFeedback {
  readonly kind: 'unknown_column';
  /** The column as SQLite reports it, qualifier included (`T1.nme`). */
  readonly column: string;
  /** The columns of the (first few) tables the query names; empty where it names none or the schema could not be read. */
  readonly candidates: readonly TableColumns[];
}

/** A column (`table.column`) that holds a value, with the value as that column spells it. */
export interface ValueHolder {
  /** `table.column`. */
  readonly column: string;
  readonly value: string;
}

/**
 * A text value a query compared a column with (`name = 'Lisbon'`) that no row of that column holds, after the query
 * found nothing: what the column does hold, and where the value (or the question's values) are instead.
 */
export interface ValueNotFoundFeedback {
  readonly kind: 'value_not_found';
  /** The compared column as the query wrote it (`name`, `T1.name` without its qualifier). */
  readonly column: string;
  /** The compared value. */
  readonly value: string;
  /** The column it was looked up in, `table.column` as the schema spells it. */
  readonly lookedUpIn: string;
  /** That column's values closest to the compared one, closest first. */
  readonly closest: readonly string[];
  /** Other columns of the query's tables that hold the value (ignoring case). */
  readonly heldBy: readonly ValueHolder[];
  /**
   * Where no column holds it: values the question names that the query's tables hold, each with its column (value
   * linking). Empty where `heldBy` is not.
   */
  readonly questionValues: readonly ValueHolder[];
}

/**
 * One piece of SQLEnv's feedback.
 *
 * @example
 * ```ts
 * const [, , , , info] = await env.step({ name: 'query', arguments: { sql: 'SELECT nme FROM singer' } });
 * for (const f of info.feedback as SqlFeedback[]) if (f.kind === 'unknown_column') console.log(f.candidates[0]?.columns);
 * ```
 */
export type SqlFeedback = UnknownTableFeedback | UnknownColumnFeedback | ValueNotFoundFeedback;
