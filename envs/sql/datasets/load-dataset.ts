import { existsSync } from 'node:fs';
import { GOLD_QUERY_LIMITS, resolveQueryLimits, type QueryLimits } from '../sandbox/limits.js';
import { QueryPool } from '../sandbox/query-pool.js';
import { SchemaReader } from '../sandbox/schema-reader.js';
import { bundledDataDir } from './bundled-data-dir.js';
import { DatasetError } from './dataset-error.js';
import { databaseFile, resolveBirdLayout, resolveSpiderLayout, type DatasetLayout } from './dataset-layout.js';
import { describeDatasetSource, type DatasetSource } from './dataset-source.js';
import { runGoldQueries } from './gold-queries.js';
import { readQuestionFile } from './question-file.js';
import { SqlDataset } from './sql-dataset.js';
import type { SkippedQuestion, SqlQuestion } from './sql-question.js';
import { tablesInSql } from '../sandbox/tables-in-sql.js';

/** Options of {@link loadDataset}. */
export interface LoadDatasetOptions {
  /**
   * Run every gold SQL at load time and skip the questions whose gold fails (default true).
   * With false, loading is instant and `goldResult` runs each gold query on first use.
   */
  validateGold?: boolean;
  /** A pool to run gold SQL on (its owner closes it); by default the dataset starts its own. */
  pool?: QueryPool;
  /** Limits for gold SQL (default {@link GOLD_QUERY_LIMITS}: 30 s, 100,000 rows, 64 MiB). */
  goldLimits?: Partial<QueryLimits>;
  /** Keep only questions about these databases. */
  dbIds?: readonly string[];
}

/**
 * Load one split of a dataset.
 *
 * - `'bundled'`: the package's `data/bundled` (Spider layout).
 * - `{ kind: 'spider', dir }` or a directory string: Spider's layout — `database/<db>/<db>.sqlite`
 *   and `<split>.json` (`train` → `train_spider.json`, `dev` → `dev.json`) of `{question, query, db_id}`.
 * - `{ kind: 'bird', dir }`: BIRD's layout — `<split>.json` of `{question_id, question, SQL, db_id,
 *   evidence, difficulty}` and `<split>_databases/<db>/<db>.sqlite` (at `dir` or `dir/<split>`).
 *
 * Entries that are malformed, whose database is missing, or (by default) whose gold SQL fails
 * are left out and listed in `skipped` with the reason. Missing directories or splits throw a
 * {@link DatasetError} naming what exists. Close the dataset when done.
 *
 * @example
 * ```ts
 * const ds = await loadDataset('bundled', 'smoke');
 * console.log(ds.questions.length, 'questions,', ds.skipped.length, 'skipped');
 * await ds.close();
 * ```
 */
export async function loadDataset(
  source: DatasetSource,
  split: string,
  options: LoadDatasetOptions = {},
): Promise<SqlDataset> {
  const layout = resolveLayout(source, split);
  const read = readQuestionFile(layout.questionFile, layout.format, split);
  const skipped: SkippedQuestion[] = [...read.skipped];
  const wanted = options.dbIds ? new Set(options.dbIds) : undefined;
  const candidates = read.questions.filter((q) => !wanted || wanted.has(q.dbId));

  const present: SqlQuestion[] = [];
  for (const q of candidates) {
    const file = databaseFile(layout.databaseDir, q.dbId);
    if (existsSync(file)) present.push(q);
    else skipped.push({ id: q.id, reason: `database "${q.dbId}" not found at ${file}` });
  }
  addGoldTables(present, layout.databaseDir);

  const parts = {
    name: describeDatasetSource(source),
    split,
    source,
    format: layout.format,
    databaseDir: layout.databaseDir,
    skipped,
    ...(options.pool ? { pool: options.pool } : {}),
    ...(options.goldLimits ? { goldLimits: options.goldLimits } : {}),
  };
  if (options.validateGold === false) return new SqlDataset({ ...parts, questions: present });

  const limits = resolveQueryLimits(options.goldLimits, GOLD_QUERY_LIMITS);
  // Gold SQL runs in killable processes too: a dataset's own query can be slow or broken.
  const pool = options.pool ?? new QueryPool({ limits });
  try {
    const { results, failed } = await runGoldQueries(pool, present, layout.databaseDir, limits);
    skipped.push(...failed);
    return new SqlDataset({ ...parts, questions: present.filter((q) => results.has(q.id)), goldResults: results });
  } finally {
    if (pool !== options.pool) await pool.close();
  }
}

function resolveLayout(source: DatasetSource, split: string): DatasetLayout {
  if (typeof split !== 'string' || split.trim() === '') {
    throw new DatasetError('split must be a non-empty name, e.g. "train"');
  }
  if (source === 'bundled') return resolveSpiderLayout(bundledDataDir(), split);
  if (typeof source === 'string') return resolveSpiderLayout(source, split);
  if (source.kind === 'spider') return resolveSpiderLayout(source.dir, split);
  if (source.kind === 'bird') return resolveBirdLayout(source.dir, split);
  throw new DatasetError(`unknown dataset kind ${JSON.stringify((source as { kind?: unknown }).kind)}: use spider or bird`);
}

/** Fill `tables` (where the file gave none) with the database tables the gold SQL names. */
function addGoldTables(questions: SqlQuestion[], databaseDir: string): void {
  const tablesByDb = new Map<string, string[]>();
  for (const q of questions) {
    if (q.tables) continue;
    let tables = tablesByDb.get(q.dbId);
    if (!tables) {
      tables = readTableNames(databaseFile(databaseDir, q.dbId));
      tablesByDb.set(q.dbId, tables);
    }
    q.tables = tablesInSql(q.goldSql, tables);
  }
}

function readTableNames(dbPath: string): string[] {
  try {
    const reader = SchemaReader.open(dbPath);
    try {
      return reader.tables();
    } finally {
      reader.close();
    }
  } catch {
    // An unreadable database fails its gold SQL later, with the driver's message.
    return [];
  }
}
