/**
 * Builds the whole bundled dataset into a directory: one SQLite file per domain, the
 * questions instantiated from the generic and domain templates, the splits, and `tables.json`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { buildInfoPath, databasePath, splitPath, type BuildInfo, type SpiderQuestionEntry } from '../lib/spider-layout.js';
import { BUNDLED_SEED, EVAL_FRACTION, SMOKE_SIZE, TRAIN_EXTRA_ROUNDS, UNSEEN_DB_IDS, VALIDATION_FRACTION, VALIDATION_UNSEEN_DBS } from './config.js';
import { ALL_DOMAINS } from './domains/index.js';
import { populate } from './populate.js';
import { proceduralDomain } from './procedural/procedural-domain.js';
import { DbView } from './questions/db-view.js';
import { GENERIC_TEMPLATES } from './questions/generic-templates.js';
import { instantiateTemplates, type AcceptedQuestion, type RejectionCounts, type SeenSet } from './questions/instantiate.js';
import type { DomainSpec } from './schema.js';
import { spiderTablesEntry } from './spider-tables.js';
import { assignSplits, carveValidation, SPLIT_NAMES, type SplitName } from './splits.js';
import { writeSqlite } from './sqlite-writer.js';

/** What to build and where. */
export interface BuildOptions {
  readonly outDir: string;
  readonly seed?: number;
  readonly domains?: readonly DomainSpec[];
  readonly unseenDbIds?: readonly string[];
  /** Databases for `validation_unseen_db` (already in `domains`); default: none with custom domains, else the bundled procedural ones. */
  readonly validationUnseenDbIds?: readonly string[];
  /**
   * Fraction of each training database's extra questions (`trainExtraRounds`) for `validation`
   * (default: the bundled fraction, 0 with custom domains); needs at least one extra round.
   */
  readonly validationFraction?: number;
  /** Fraction of each training database's questions for `eval` (default: the bundled fraction); 0 puts them all in `train` (pre-training corpora). */
  readonly evalFraction?: number;
  /** Size of the `smoke` split (default: the bundled size). */
  readonly smokeSize?: number;
  /**
   * Rounds of extra `train` questions on the training databases (default: the bundled
   * TRAIN_EXTRA_ROUNDS, 0 with custom domains): the templates instantiated again with seeds
   * `seed + 1`…, after the other splits are fixed, so those do not change; `validation` is drawn
   * from them, `train` gets the rest.
   */
  readonly trainExtraRounds?: number;
}

/**
 * The domains of the bundled build: the hand-written ones, then the procedural validation databases.
 *
 * @example
 * ```ts
 * bundledDomains().at(-1)?.id; // 'gen_val_c'
 * ```
 */
export function bundledDomains(): DomainSpec[] {
  return [...ALL_DOMAINS, ...VALIDATION_UNSEEN_DBS.map((d) => proceduralDomain(d.id, d.seed))];
}

/** A summary of a build, for the log and for tests. */
export interface BuildReport {
  readonly databases: { id: string; tables: number; rows: number }[];
  readonly splits: Record<SplitName, number>;
  readonly questions: readonly AcceptedQuestion[];
  readonly rejected: RejectionCounts;
}

/**
 * Build the dataset into `outDir` (files there with the same names are replaced).
 *
 * @example
 * ```ts
 * const report = buildDataset({ outDir: 'data/bundled' });
 * report.splits.train; // number of training questions
 * ```
 */
export function buildDataset(options: BuildOptions): BuildReport {
  const seed = options.seed ?? BUNDLED_SEED;
  const domains = options.domains ?? bundledDomains();
  const custom = options.domains !== undefined;
  const extraRounds = options.trainExtraRounds ?? (custom ? 0 : TRAIN_EXTRA_ROUNDS);
  const validationFraction = options.validationFraction ?? (custom ? 0 : VALIDATION_FRACTION);
  if (validationFraction > 0 && extraRounds < 1) {
    throw new RangeError(`validationFraction ${validationFraction} needs trainExtraRounds >= 1: validation is drawn from the extra questions (set trainExtraRounds, or validationFraction 0)`);
  }
  const seen: SeenSet = { questions: new Set(), queries: new Set() };
  const rejected: RejectionCounts = new Map();
  const questions: AcceptedQuestion[] = [];
  const databases: BuildReport['databases'] = [];
  // Each database's view, file and templates, kept for the extra train rounds after the split.
  const views = new Map<string, { view: DbView; file: string; templates: DomainSpec['templates'] }>();

  for (const domain of domains) {
    const generated = populate(domain, seed);
    const file = databasePath(options.outDir, domain.id);
    mkdirSync(dirname(file), { recursive: true });
    writeSqlite(generated, file);
    databases.push({
      id: domain.id, tables: domain.tables.length,
      rows: [...generated.rows.values()].reduce((n, rows) => n + rows.length, 0),
    });
    const conn = new Database(file, { readonly: true });
    try {
      const view = new DbView(generated);
      const templates = [...GENERIC_TEMPLATES, ...domain.templates];
      views.set(domain.id, { view, file, templates });
      questions.push(...instantiateTemplates(view, conn, templates, seed, seen, rejected));
    } finally {
      conn.close();
    }
  }

  const splits = assignSplits(questions, {
    unseenDbIds: options.unseenDbIds ?? UNSEEN_DB_IDS, evalFraction: options.evalFraction ?? EVAL_FRACTION, smokeSize: options.smokeSize ?? SMOKE_SIZE, seed,
    validationUnseenDbIds: options.validationUnseenDbIds ?? (custom ? [] : VALIDATION_UNSEEN_DBS.map((d) => d.id)),
  });
  // Extra training questions, drawn once every split's questions are in `seen`, so none repeats one.
  const trainDbs = new Set((splits.get('train') ?? []).map((q) => q.dbId));
  const extra: AcceptedQuestion[] = [];
  for (const [dbId, { view, file, templates }] of views) {
    if (!trainDbs.has(dbId)) continue;
    const conn = new Database(file, { readonly: true });
    try {
      for (let round = 1; round <= extraRounds; round++) extra.push(...instantiateTemplates(view, conn, templates, seed + round, seen, rejected));
    } finally {
      conn.close();
    }
  }
  const { validation, rest } = carveValidation(extra, validationFraction, seed);
  splits.get('validation')!.push(...validation);
  splits.get('train')!.push(...rest);
  questions.push(...extra);
  const counts = {} as Record<SplitName, number>;
  for (const name of SPLIT_NAMES) {
    const entries = (splits.get(name) ?? []).map(toEntry);
    counts[name] = entries.length;
    writeJson(splitPath(options.outDir, name), entries);
  }
  writeJson(`${options.outDir}/tables.json`, domains.map(spiderTablesEntry));
  const info: BuildInfo = { seed, sqlite_version: sqliteVersion(), databases: databases.length, questions: questions.length };
  writeJson(buildInfoPath(options.outDir), info);
  return { databases, splits: counts, questions, rejected };
}

function toEntry(q: AcceptedQuestion): SpiderQuestionEntry {
  return { question: q.question, query: q.query, db_id: q.dbId, difficulty: q.difficulty, tables: [...q.tables], template: q.template };
}

function sqliteVersion(): string {
  const db = new Database(':memory:');
  try {
    return db.prepare('SELECT sqlite_version()').pluck().get() as string;
  } finally {
    db.close();
  }
}

function writeJson(file: string, value: unknown): void {
  writeFileSync(file, `${JSON.stringify(value, null, 1)}\n`);
}
