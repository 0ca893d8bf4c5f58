/**
 * Quality gates on the committed bundled dataset (data/bundled): every gold query runs and
 * gives a small informative answer, questions are unique, plain English and spread over
 * templates, tiers and databases, the splits are disjoint, and the held-out databases never
 * appear in training.
 */
import { existsSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeDatasetStats } from '../../data/lib/dataset-stats.js';
import { goldResultProblem } from '../../data/lib/gold-quality.js';
import { normalizeQuestion, sqlInQuestion } from '../../data/lib/question-lint.js';
import { BUNDLED_SPLITS, bundledRoot, databasePath, readSplit, type SpiderQuestionEntry } from '../../data/lib/spider-layout.js';
import { sqlShape } from '../../data/lib/sql-shape.js';

const root = bundledRoot();
const splits = new Map(BUNDLED_SPLITS.map((s) => [s, readSplit(root, s)]));
const all: (SpiderQuestionEntry & { split: string })[] = [...splits].flatMap(([split, qs]) => qs.map((q) => ({ ...q, split })));
const dbIds = [...new Set(all.map((q) => q.db_id))].sort();
const connections = new Map<string, Database.Database>();
const answers = new Map<SpiderQuestionEntry, unknown[][]>();

beforeAll(() => {
  for (const id of dbIds) connections.set(id, new Database(databasePath(root, id), { readonly: true, fileMustExist: true }));
  for (const q of all) answers.set(q, connections.get(q.db_id)!.prepare(q.query).raw(true).all() as unknown[][]);
});
afterAll(() => {
  for (const c of connections.values()) c.close();
});

describe('bundled dataset: size and breadth', () => {
  it('has at least 12 databases in distinct domains and 2,000 questions', () => {
    expect(dbIds.length).toBeGreaterThanOrEqual(12);
    expect(all.length).toBeGreaterThanOrEqual(2000);
    for (const id of dbIds) expect(existsSync(databasePath(root, id))).toBe(true);
  });

  it('keeps every database to 3–8 tables of 20–2,000 rows, and the whole dataset under 20 MB', () => {
    const stats = computeDatasetStats(root);
    expect(stats.sizeBytes).toBeLessThanOrEqual(20 * 1024 * 1024);
    for (const db of stats.databases) {
      expect(db.tables.length, db.dbId).toBeGreaterThanOrEqual(3);
      expect(db.tables.length, db.dbId).toBeLessThanOrEqual(8);
      for (const t of db.tables) {
        expect(t.rows, `${db.dbId}.${t.name}`).toBeGreaterThanOrEqual(20);
        expect(t.rows, `${db.dbId}.${t.name}`).toBeLessThanOrEqual(2000);
      }
    }
  });

  it('asks for at least 150 distinct SQL shapes', () => {
    expect(new Set(all.map((q) => sqlShape(q.query))).size).toBeGreaterThanOrEqual(150);
  });

  it('covers all four difficulty tiers in every split except smoke, which is easy and medium only', () => {
    for (const [name, qs] of splits) {
      const tiers = new Set(qs.map((q) => q.difficulty));
      if (name === 'smoke') expect([...tiers].sort()).toEqual(['easy', 'medium']);
      else expect([...tiers].sort()).toEqual(['easy', 'extra', 'hard', 'medium']);
    }
  });

  it('uses declared columns of every type, NULLs, primary and foreign keys', () => {
    const types = new Set<string>();
    let nullable = 0;
    let foreignKeys = 0;
    for (const [id, db] of connections) {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
      for (const t of tables) {
        const cols = db.prepare(`PRAGMA table_info(${t})`).all() as { name: string; type: string; pk: number }[];
        expect(cols.some((c) => c.pk === 1), `${id}.${t} has a primary key`).toBe(true);
        for (const c of cols) {
          types.add(c.type);
          nullable += (db.prepare(`SELECT COUNT(*) FROM ${t} WHERE ${c.name} IS NULL`).pluck().get() as number) > 0 ? 1 : 0;
        }
        foreignKeys += (db.prepare(`PRAGMA foreign_key_list(${t})`).all() as unknown[]).length;
      }
      expect((db.prepare('PRAGMA foreign_key_check').all() as unknown[]).length, `${id} foreign keys hold`).toBe(0);
    }
    expect([...types].sort()).toEqual(['DATE', 'INTEGER', 'REAL', 'TEXT']);
    expect(nullable).toBeGreaterThan(20);
    expect(foreignKeys).toBeGreaterThan(40);
  });
});

describe('bundled dataset: gold answers', () => {
  it('every gold query runs and returns 1–20 rows without NULL cells or a bare zero', () => {
    const bad = all.map((q) => ({ q, problem: goldResultProblem(answers.get(q)!) })).filter((x) => x.problem);
    expect(bad.map((x) => `${x.problem}: ${x.q.query}`)).toEqual([]);
  });

  it('no template gives the same answer to all of its questions', () => {
    const byTemplate = new Map<string, { count: number; distinct: Set<string> }>();
    for (const q of all) {
      const key = q.template ?? '';
      if (!byTemplate.has(key)) byTemplate.set(key, { count: 0, distinct: new Set() });
      const entry = byTemplate.get(key)!;
      entry.count++;
      entry.distinct.add(JSON.stringify(answers.get(q)));
    }
    // A template asked once (rare drafts that pass the gates once) cannot show a constant answer.
    const constant = [...byTemplate].filter(([, e]) => e.count > 1 && e.distinct.size < 2).map(([t]) => t);
    expect(constant).toEqual([]);
  });

  it('lists the tables each gold query reads', () => {
    for (const q of all) {
      expect(q.tables.length, q.query).toBeGreaterThan(0);
      for (const t of q.tables) expect(q.query, `${q.db_id}: ${t}`).toMatch(new RegExp(`\\b${t}\\b`));
    }
  });
});

describe('bundled dataset: questions', () => {
  it('has no duplicate question across all splits (normalised text)', () => {
    const seen = new Map<string, string>();
    const dups: string[] = [];
    for (const q of all) {
      const key = normalizeQuestion(q.question);
      if (seen.has(key)) dups.push(q.question);
      seen.set(key, q.split);
    }
    expect(dups).toEqual([]);
  });

  it('holds no SQL in question text', () => {
    const leaking = all.filter((q) => sqlInQuestion(q.question).length > 0).map((q) => q.question);
    expect(leaking).toEqual([]);
  });

  it('reads like questions: capitalised, ending in ? or ., and of reasonable length', () => {
    for (const q of all) {
      expect(q.question, q.question).toMatch(/^[A-Z"].*[?.]$/);
      expect(q.question.length).toBeLessThan(260);
    }
  });
});

describe('bundled dataset: splits', () => {
  it('assigns each question to exactly one split', () => {
    const key = (q: SpiderQuestionEntry) => `${q.db_id}\u0000${q.query}`;
    const counts = new Map<string, number>();
    for (const q of all) counts.set(key(q), (counts.get(key(q)) ?? 0) + 1);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  });

  it('keeps at least 3 databases out of train, eval and smoke', () => {
    const unseen = new Set(splits.get('eval_unseen_db')!.map((q) => q.db_id));
    const seen = new Set(['train', 'eval', 'smoke'].flatMap((s) => splits.get(s as 'train')!.map((q) => q.db_id)));
    expect(unseen.size).toBeGreaterThanOrEqual(3);
    for (const id of unseen) expect(seen.has(id), id).toBe(false);
  });

  it('asks eval questions only about training databases', () => {
    const train = new Set(splits.get('train')!.map((q) => q.db_id));
    for (const q of splits.get('eval')!) expect(train.has(q.db_id)).toBe(true);
    for (const q of splits.get('smoke')!) expect(train.has(q.db_id)).toBe(true);
    expect(splits.get('eval')!.length).toBeGreaterThan(200);
  });

  it('keeps validation apart from test: disjoint questions, its own unseen databases', () => {
    const text = (s: string) => new Set(splits.get(s as 'train')!.map((q) => q.question));
    const validation = text('validation');
    for (const other of ['train', 'eval', 'eval_unseen_db', 'smoke']) {
      for (const q of text(other)) expect(validation.has(q), `${other}: ${q}`).toBe(false);
    }
    const dbsOf = (s: string) => new Set(splits.get(s as 'train')!.map((q) => q.db_id));
    const valUnseen = dbsOf('validation_unseen_db');
    expect(valUnseen.size).toBe(3);
    for (const s of ['train', 'validation', 'eval', 'eval_unseen_db', 'smoke']) for (const id of dbsOf(s)) expect(valUnseen.has(id), `${s}: ${id}`).toBe(false);
    expect([...dbsOf('validation')].sort()).toEqual([...dbsOf('train')].sort());
    expect(splits.get('validation')!.filter((q) => q.difficulty === 'easy').length).toBeGreaterThan(60);
  });

  it('has a smoke split of about 30 questions', () => {
    expect(splits.get('smoke')!.length).toBe(30);
  });
});

describe('bundled dataset: tables.json', () => {
  it('describes every database in Spider\'s format, matching the SQLite schema', () => {
    const entries = JSON.parse(readFileSync(`${root}/tables.json`, 'utf8')) as {
      db_id: string; table_names_original: string[]; table_names: string[]; column_names_original: [number, string][];
      column_names: [number, string][]; column_types: string[]; primary_keys: number[]; foreign_keys: [number, number][];
    }[];
    expect(entries.map((e) => e.db_id).sort()).toEqual(dbIds);
    for (const e of entries) {
      const db = connections.get(e.db_id)!;
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid").pluck().all();
      expect(e.table_names_original).toEqual(tables);
      expect(e.table_names.length).toBe(tables.length);
      expect(e.column_names.length).toBe(e.column_names_original.length);
      expect(e.column_types.length).toBe(e.column_names_original.length);
      for (const [ti, col] of e.column_names_original.slice(1)) {
        const cols = (db.prepare(`PRAGMA table_info(${e.table_names_original[ti]!})`).all() as { name: string }[]).map((c) => c.name);
        expect(cols).toContain(col);
      }
      expect(e.primary_keys.length).toBe(tables.length);
      for (const [from, to] of e.foreign_keys) {
        expect(from).toBeLessThan(e.column_names_original.length);
        expect(e.primary_keys).toContain(to);
      }
    }
  });
});
