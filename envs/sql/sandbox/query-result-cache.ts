import { statSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { resolveQueryLimits, DEFAULT_QUERY_LIMITS, type QueryLimits } from './limits.js';
import type { QueryResult } from './query-result.js';
import { tokenizeSql } from './sql-tokens.js';

/** Anything that runs sandboxed queries (a `QueryPool`). */
export interface QueryRunner {
  /** The runner's default limits (a pool's), which a query's own limits override. */
  readonly limits?: Readonly<QueryLimits>;
  run(dbPath: string, sql: string, limits?: Partial<QueryLimits>): Promise<QueryResult>;
}

/** Options of a {@link QueryResultCache}. */
export interface QueryResultCacheOptions {
  /** Most results kept (default 4,096). */
  maxEntries?: number;
  /** Approximate bytes of results kept (default 32 MiB); a result larger than a quarter of it is never kept. */
  maxBytes?: number;
}

/**
 * Functions whose value can change between two runs of the same statement on the same read-only
 * file: randomness, the clock (the date and time functions read it for `'now'` or no argument;
 * all of them are excluded, to stay simple and safe) and connection state.
 */
const VOLATILE = new Set([
  'random',
  'randomblob',
  'changes',
  'total_changes',
  'last_insert_rowid',
  'current_date',
  'current_time',
  'current_timestamp',
  'date',
  'time',
  'datetime',
  'julianday',
  'unixepoch',
  'strftime',
  'timediff',
]);

interface Entry {
  result: QueryResult;
  bytes: number;
}

/**
 * A bounded least-recently-used cache of sandboxed query results, in front of a query pool.
 * SQLEnv's databases are read-only, so a statement without volatile functions (`random()`, the
 * clock, connection state) gives the same result every time it runs on the same file with the
 * same limits: the cache answers repeats in-process, without the round trip to a query process.
 * Keys are the database file (with its size and modification time, so a replaced file is never
 * answered from the cache), the SQL text and the limits. Only successful results are kept; errors,
 * timeouts and volatile statements always run. Cached results are shared: treat them as read-only.
 *
 * @example
 * ```ts
 * const cache = new QueryResultCache();
 * const r1 = await cache.run(pool, dbPath, 'SELECT count(*) FROM singer'); // runs in the pool
 * const r2 = await cache.run(pool, dbPath, 'SELECT count(*) FROM singer'); // from the cache
 * ```
 */
export class QueryResultCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private bytes = 0;
  /** Queries answered from the cache. */
  hits = 0;
  /** Queries that ran in the pool. */
  misses = 0;

  constructor(options: QueryResultCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 4096;
    this.maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  }

  /** Run `sql` through `runner`, or answer it from the cache when it ran before. */
  async run(runner: QueryRunner, dbPath: string, sql: string, limits: Partial<QueryLimits> = {}): Promise<QueryResult> {
    const key = cacheKey(dbPath, sql, resolveQueryLimits(limits, runner.limits ?? DEFAULT_QUERY_LIMITS));
    const hit = key === undefined ? undefined : this.entries.get(key);
    if (hit) {
      this.hits++;
      // Most recently used last.
      this.entries.delete(key!);
      this.entries.set(key!, hit);
      return hit.result;
    }
    this.misses++;
    const result = await runner.run(dbPath, sql, limits);
    if (key !== undefined && isDeterministic(sql)) this.store(key, result);
    return result;
  }

  /** Number of results kept. */
  get size(): number {
    return this.entries.size;
  }

  /** Forget every result. */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private store(key: string, result: QueryResult): void {
    const bytes = resultBytes(result);
    if (bytes > this.maxBytes / 4) return;
    this.entries.set(key, { result, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }
}

/** The cache key, or undefined when the file cannot be read (the pool will report it). */
function cacheKey(dbPath: string, sql: string, l: QueryLimits): string | undefined {
  const path = resolvePath(dbPath);
  let stamp: string;
  try {
    const s = statSync(path, { bigint: true });
    stamp = `${s.size}:${s.mtimeNs}:${s.ino}`;
  } catch {
    return undefined;
  }
  return `${path}\u0000${stamp}\u0000${l.timeoutMs}:${l.maxRows}:${l.fetchRows}:${l.maxCellChars}:${l.maxResultBytes}\u0000${sql}`;
}

/**
 * Whether `sql` surely gives the same result on every run against the same read-only file: no
 * volatile function name appears outside literals (a conservative test: a column named `date`
 * also turns caching off).
 *
 * @example
 * ```ts
 * isDeterministic('SELECT name FROM singer');          // true
 * isDeterministic("SELECT date('now')");              // false
 * isDeterministic('SELECT * FROM t ORDER BY random()'); // false
 * ```
 */
export function isDeterministic(sql: string): boolean {
  const lexed = tokenizeSql(sql);
  if (!lexed.ok) return false;
  return !lexed.tokens.some((t) => (t.kind === 'word' || t.kind === 'quoted') && VOLATILE.has(unquote(t.text).toLowerCase()));
}

function unquote(text: string): string {
  return /^["`[]/.test(text) ? text.slice(1, -1) : text;
}

/** Approximate bytes of a result held in memory. */
function resultBytes(result: QueryResult): number {
  let bytes = 64 + result.columns.reduce((s, c) => s + 2 * c.length + 16, 0);
  const count = (rows: readonly (readonly unknown[])[]) => {
    for (const row of rows) {
      bytes += 16 + 8 * row.length;
      for (const cell of row) if (typeof cell === 'string') bytes += 2 * cell.length;
    }
  };
  count(result.rows);
  if (result.fullRows && result.fullRows !== result.rows) count(result.fullRows);
  return bytes;
}
