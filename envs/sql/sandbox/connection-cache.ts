import { openReadOnlyDatabase, type SqliteConnection } from './read-only-connection.js';

/**
 * Read-only connections kept open per database file, least recently used closed first, so a
 * query process reuses its connection (and SQLite's page cache) across queries.
 *
 * @example
 * ```ts
 * const cache = new ConnectionCache(8);
 * const db = cache.get('/data/db/concert_singer.sqlite');
 * cache.close();
 * ```
 */
export class ConnectionCache {
  private readonly connections = new Map<string, SqliteConnection>();

  constructor(private readonly capacity = 8) {}

  /** The open connection for `dbPath`, opened on first use. Throws SqlSandboxError if it cannot open. */
  get(dbPath: string): SqliteConnection {
    const cached = this.connections.get(dbPath);
    if (cached) {
      // Re-insert to mark as most recently used (Map keeps insertion order).
      this.connections.delete(dbPath);
      this.connections.set(dbPath, cached);
      return cached;
    }
    const db = openReadOnlyDatabase(dbPath);
    this.connections.set(dbPath, db);
    while (this.connections.size > this.capacity) {
      const [oldestPath, oldest] = this.connections.entries().next().value as [string, SqliteConnection];
      this.connections.delete(oldestPath);
      oldest.close();
    }
    return db;
  }

  /** Number of open connections. */
  get size(): number {
    return this.connections.size;
  }

  /** Close every connection. */
  close(): void {
    for (const db of this.connections.values()) db.close();
    this.connections.clear();
  }
}
