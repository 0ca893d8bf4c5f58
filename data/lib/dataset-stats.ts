/**
 * Statistics of a dataset in Spider's layout: its databases (tables, rows), questions per
 * split and per difficulty, distinct SQL shapes, and size on disk. Used by
 * `sqlenv data stats` and to write the statistics table of the data card.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BUNDLED_SPLITS, databasePath, readSplit, type SpiderQuestionEntry } from './spider-layout.js';
import { sqlShape } from './sql-shape.js';

/** Difficulty tiers in display order; questions without one count as `unknown`. */
export const DIFFICULTY_ORDER = ['easy', 'medium', 'hard', 'extra', 'unknown'] as const;

/** One database's size. */
export interface DatabaseStats {
  dbId: string;
  tables: { name: string; rows: number }[];
  totalRows: number;
  /** Questions about this database, per split. */
  questionsBySplit: Record<string, number>;
}

/** One split's size and difficulty mix. */
export interface SplitStats {
  name: string;
  questions: number;
  databases: number;
  byDifficulty: Record<string, number>;
}

/** Everything `sqlenv data stats` prints. */
export interface DatasetStats {
  root: string;
  databases: DatabaseStats[];
  splits: SplitStats[];
  totalQuestions: number;
  distinctShapes: number;
  sizeBytes: number;
}

/**
 * The split names of a dataset directory: every `*.json` file except `tables*.json` and
 * `build-info.json`, known bundled splits first.
 *
 * @example
 * ```ts
 * listSplits('data/bundled'); // ['train', 'validation', 'validation_unseen_db', 'eval', 'eval_unseen_db', 'smoke']
 * ```
 */
export function listSplits(root: string): string[] {
  const known: readonly string[] = BUNDLED_SPLITS;
  const rank = (s: string) => (known.includes(s) ? known.indexOf(s) : known.length);
  return readdirSync(root)
    .filter((f) => f.endsWith('.json') && !f.startsWith('tables') && f !== 'build-info.json')
    .map((f) => f.slice(0, -'.json'.length))
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * Compute the statistics of a dataset directory.
 *
 * @example
 * ```ts
 * const stats = computeDatasetStats(bundledRoot());
 * stats.splits.find((s) => s.name === 'train')?.questions;
 * ```
 */
export function computeDatasetStats(root: string, splitNames: readonly string[] = listSplits(root)): DatasetStats {
  const splits = splitNames.map((name) => ({ name, questions: readSplit(root, name) }));
  const all: SpiderQuestionEntry[] = splits.flatMap((s) => s.questions);
  const dbDir = join(root, 'database');
  const dbIds = existsSync(dbDir) ? readdirSync(dbDir).filter((d) => existsSync(databasePath(root, d))).sort() : [];

  const databases = dbIds.map((dbId) => {
    const db = new Database(databasePath(root, dbId), { readonly: true, fileMustExist: true });
    try {
      const names = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid").all() as { name: string }[]).map((r) => r.name);
      const tables = names.map((name) => ({ name, rows: (db.prepare(`SELECT COUNT(*) AS n FROM "${name.replace(/"/g, '""')}"`).get() as { n: number }).n }));
      const questionsBySplit = Object.fromEntries(splits.map((s) => [s.name, s.questions.filter((q) => q.db_id === dbId).length]));
      return { dbId, tables, totalRows: tables.reduce((n, t) => n + t.rows, 0), questionsBySplit };
    } finally {
      db.close();
    }
  });

  const shapes = new Set<string>();
  for (const q of all) {
    try { shapes.add(sqlShape(q.query)); } catch { shapes.add(`unparsed:${q.query}`); }
  }
  return {
    root,
    databases,
    splits: splits.map((s) => ({
      name: s.name,
      questions: s.questions.length,
      databases: new Set(s.questions.map((q) => q.db_id)).size,
      byDifficulty: countBy(s.questions, (q) => q.difficulty ?? 'unknown'),
    })),
    totalQuestions: all.length,
    distinctShapes: shapes.size,
    sizeBytes: directorySize(root),
  };
}

/**
 * The statistics as Markdown tables (the same text the data card embeds).
 *
 * @example
 * ```ts
 * console.log(formatDatasetStats(computeDatasetStats(bundledRoot())));
 * ```
 */
export function formatDatasetStats(stats: DatasetStats): string {
  const splitNames = stats.splits.map((s) => s.name);
  const lines: string[] = [];
  lines.push(`${stats.databases.length} databases, ${stats.totalQuestions} questions, ${stats.distinctShapes} distinct SQL shapes, ${(stats.sizeBytes / 1e6).toFixed(2)} MB on disk.`, '');
  lines.push(`| database | tables | rows | ${splitNames.join(' | ')} |`);
  lines.push(`|---|---:|---:|${splitNames.map(() => '---:').join('|')}|`);
  for (const db of stats.databases) {
    lines.push(`| ${db.dbId} | ${db.tables.length} | ${db.totalRows} | ${splitNames.map((s) => db.questionsBySplit[s] ?? 0).join(' | ')} |`);
  }
  lines.push('');
  const tiers = DIFFICULTY_ORDER.filter((d) => stats.splits.some((s) => (s.byDifficulty[d] ?? 0) > 0));
  lines.push(`| split | questions | databases | ${tiers.join(' | ')} |`);
  lines.push(`|---|---:|---:|${tiers.map(() => '---:').join('|')}|`);
  for (const s of stats.splits) {
    const mix = tiers.map((d) => {
      const n = s.byDifficulty[d] ?? 0;
      return `${n} (${s.questions ? Math.round((100 * n) / s.questions) : 0}%)`;
    });
    lines.push(`| ${s.name} | ${s.questions} | ${s.databases} | ${mix.join(' | ')} |`);
  }
  return lines.join('\n');
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}

function directorySize(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? directorySize(path) : statSync(path).size;
  }
  return total;
}
