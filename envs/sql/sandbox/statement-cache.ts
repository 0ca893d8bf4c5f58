import type Database from 'better-sqlite3';
import type { SqliteConnection } from './read-only-connection.js';

/** A statement prepared and checked for reading, with its column names. */
export interface PreparedRead {
  readonly stmt: Database.Statement<unknown[], unknown>;
  readonly columns: readonly string[];
}

/**
 * Prepared statements kept per connection, keyed by the SQL text as sent, least recently used
 * dropped first — what Python's `sqlite3` module does for every connection (128 statements by
 * default), so that SQL an agent sends again (the K rollouts of a question, a repeated probe) is
 * executed again without being compiled again. Compiling is a sizeable part of a small query:
 * ≈ 10 µs for a Spider gold query, and ≈ 130 µs for the quarter of them whose double-quoted
 * strings need the legacy rewrite (one failed prepare per word). The statement still runs every
 * time, under every check: only parsing and planning are saved, never a result.
 *
 * A connection's statements go with it: they are held in a WeakMap keyed by the connection.
 *
 * @example
 * ```ts
 * const statements = new StatementCache(128);
 * const read = statements.get(db, sql, () => prepareRead(db, sql));
 * ```
 */
export class StatementCache {
  private readonly byConnection = new WeakMap<SqliteConnection, Map<string, PreparedRead>>();

  constructor(readonly capacity = 128) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`StatementCache capacity must be an integer ≥ 0, got ${capacity}`);
  }

  /** The statement for `sql` on `db`, prepared with `prepare` the first time (a throw is not kept). */
  get(db: SqliteConnection, sql: string, prepare: () => PreparedRead): PreparedRead {
    if (this.capacity === 0) return prepare();
    let statements = this.byConnection.get(db);
    if (!statements) this.byConnection.set(db, (statements = new Map()));
    const cached = statements.get(sql);
    if (cached) {
      // Re-inserted: a Map iterates in insertion order, so the first key is the least recently used.
      statements.delete(sql);
      statements.set(sql, cached);
      return cached;
    }
    const prepared = prepare();
    statements.set(sql, prepared);
    if (statements.size > this.capacity) statements.delete(statements.keys().next().value as string);
    return prepared;
  }

  /** Statements kept for `db`. */
  size(db: SqliteConnection): number {
    return this.byConnection.get(db)?.size ?? 0;
  }
}
