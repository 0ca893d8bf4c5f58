import { GOLD_QUERY_LIMITS, resolveQueryLimits, type QueryLimits } from '../sandbox/limits.js';
import { QueryPool } from '../sandbox/query-pool.js';
import { DatasetError } from './dataset-error.js';
import { databaseFile } from './dataset-layout.js';
import type { DatasetSource } from './dataset-source.js';
import { toGoldResult } from './gold-queries.js';
import type { GoldResult, SkippedQuestion, SqlQuestion } from './sql-question.js';

/** What a {@link SqlDataset} is built from (see {@link loadDataset}). */
export interface SqlDatasetParts {
  name: string;
  split: string;
  format: 'spider' | 'bird';
  databaseDir: string;
  questions: SqlQuestion[];
  skipped: SkippedQuestion[];
  /** A pool owned by someone else, used for gold SQL; without it the dataset starts (and closes) its own. */
  pool?: QueryPool;
  goldLimits?: Partial<QueryLimits>;
  /** Gold results already computed (by {@link runGoldQueries}), keyed by question id. */
  goldResults?: ReadonlyMap<string, GoldResult>;
  /** Where the split was loaded from, so its other splits can be loaded too. */
  source?: DatasetSource;
}

/**
 * One split of a text-to-SQL dataset: its questions, where their databases are, and the gold
 * results (executed through a {@link QueryPool} with the gold limits — 30 s by default — and
 * cached). Questions whose gold SQL failed were left out at load time and listed in `skipped`.
 * The owner closes the dataset, which closes the query pool it started, if any.
 *
 * @example
 * ```ts
 * const ds = await loadDataset({ kind: 'spider', dir: '../spider' }, 'dev');
 * const q = ds.questions[0]!;
 * const gold = await ds.goldResult(q);
 * console.log(q.question, ds.dbPath(q.dbId), gold.rows.length, ds.skipped.length);
 * await ds.close();
 * ```
 */
export class SqlDataset {
  readonly name: string;
  readonly split: string;
  /** Where the split was loaded from (`loadDataset` records it): SQLEnv loads the other splits a reset asks for from it. */
  readonly source: DatasetSource | undefined;
  readonly format: 'spider' | 'bird';
  /** Folder of `<db_id>/<db_id>.sqlite`. */
  readonly databaseDir: string;
  readonly questions: readonly SqlQuestion[];
  readonly skipped: readonly SkippedQuestion[];
  private readonly byId: Map<string, SqlQuestion>;
  private readonly gold = new Map<string, Promise<GoldResult>>();
  /** Database paths already asked for, by id. */
  private readonly dbPaths = new Map<string, string>();
  private readonly goldLimits: QueryLimits;
  private readonly sharedPool: QueryPool | undefined;
  private ownPool: QueryPool | undefined;
  private closed = false;

  constructor(parts: SqlDatasetParts) {
    this.name = parts.name;
    this.split = parts.split;
    this.source = parts.source;
    this.format = parts.format;
    this.databaseDir = parts.databaseDir;
    this.questions = Object.freeze([...parts.questions]);
    this.skipped = parts.skipped;
    this.byId = new Map(parts.questions.map((q) => [q.id, q]));
    this.sharedPool = parts.pool;
    this.goldLimits = resolveQueryLimits(parts.goldLimits, GOLD_QUERY_LIMITS);
    for (const [id, result] of parts.goldResults ?? []) {
      if (this.byId.has(id)) this.gold.set(id, Promise.resolve(result));
    }
  }

  /** Database ids used by this split's questions, sorted. */
  get dbIds(): string[] {
    return [...new Set(this.questions.map((q) => q.dbId))].sort();
  }

  /** The question with this id, or undefined. */
  question(id: string): SqlQuestion | undefined {
    return this.byId.get(id);
  }

  /** Absolute path of a database of this dataset. Throws DatasetError for an id no question uses. */
  dbPath(dbId: string): string {
    // Called at every reset: a lookup, not a scan of the questions.
    let path = this.dbPaths.get(dbId);
    if (path === undefined) {
      if (!this.questions.some((q) => q.dbId === dbId)) {
        throw new DatasetError(`no database "${dbId}" in ${this.name}/${this.split}. Databases: ${this.dbIds.join(', ')}.`);
      }
      path = databaseFile(this.databaseDir, dbId);
      this.dbPaths.set(dbId, path);
    }
    return path;
  }

  /**
   * The gold SQL's whole result (cached). Rejects with SqlSandboxError if the gold SQL fails
   * (only possible for questions not validated at load time).
   */
  goldResult(question: SqlQuestion | string): Promise<GoldResult> {
    const q = typeof question === 'string' ? this.byId.get(question) : question;
    if (!q) return Promise.reject(new DatasetError(`no question "${String(question)}" in ${this.name}/${this.split}`));
    let cached = this.gold.get(q.id);
    if (!cached) {
      let pool: QueryPool;
      try {
        pool = this.pool();
      } catch (e) {
        return Promise.reject(e);
      }
      cached = pool
        .run(databaseFile(this.databaseDir, q.dbId), q.goldSql, this.goldLimits)
        .then(toGoldResult);
      // A failure is not cached: the caller sees it, and a later call may try again.
      cached.catch(() => this.gold.delete(q.id));
      this.gold.set(q.id, cached);
    }
    return cached;
  }

  /** Close the query pool this dataset started (a shared pool is left to its owner). Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    const pool = this.ownPool;
    this.ownPool = undefined;
    await pool?.close();
  }

  private pool(): QueryPool {
    if (this.sharedPool) return this.sharedPool;
    if (this.closed) throw new DatasetError(`dataset ${this.name}/${this.split} is closed`);
    this.ownPool ??= new QueryPool({ limits: this.goldLimits });
    return this.ownPool;
  }
}
