import { resolve } from 'node:path';
import { SchemaReader } from './schema-reader.js';

/**
 * One {@link SchemaReader} per database file, opened on first use and closed together — for an
 * owner (an environment, a dataset) that reads the schemas of many databases.
 *
 * @example
 * ```ts
 * const readers = new SchemaReaderCache();
 * readers.get(dataset.dbPath('concert_singer')).tables();
 * readers.close();
 * ```
 */
export class SchemaReaderCache {
  private readonly readers = new Map<string, SchemaReader>();

  /** The reader of `dbPath` (by absolute path), opened on first use. */
  get(dbPath: string): SchemaReader {
    // Asked at every step with the same path: the path as given is looked up before it is resolved.
    let reader = this.readers.get(dbPath);
    if (reader) return reader;
    const key = resolve(dbPath);
    reader = this.readers.get(key);
    if (!reader) {
      reader = SchemaReader.open(key);
      this.readers.set(key, reader);
    }
    if (key !== dbPath) this.readers.set(dbPath, reader);
    return reader;
  }

  /** Close every reader. Idempotent. */
  close(): void {
    // A reader may be listed under its given and its resolved path: closed once.
    for (const reader of new Set(this.readers.values())) reader.close();
    this.readers.clear();
  }
}
