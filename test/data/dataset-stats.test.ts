import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { computeDatasetStats, formatDatasetStats, listSplits } from '../../data/lib/dataset-stats.js';
import { DatasetLayoutError, readSplit } from '../../data/lib/spider-layout.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const tempDir = useTempDirs('sqlenv-stats-');

let root: string;

beforeAll(() => {
  // A Spider-style directory: split names of its own, no difficulty field.
  root = tempDir();
  mkdirSync(join(root, 'database', 'pets'), { recursive: true });
  const db = new Database(join(root, 'database', 'pets', 'pets.sqlite'));
  db.exec("CREATE TABLE owner (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO owner (name) VALUES ('Ana'), ('Ben');");
  db.exec("CREATE TABLE pet (id INTEGER PRIMARY KEY, owner_id INTEGER, kind TEXT); INSERT INTO pet (owner_id, kind) VALUES (1, 'cat'), (1, 'dog'), (2, 'cat');");
  db.close();
  const q = (question: string, query: string, difficulty?: string) => ({ question, query, db_id: 'pets', ...(difficulty ? { difficulty } : {}) });
  writeFileSync(join(root, 'train_spider.json'), JSON.stringify([q('How many pets?', 'SELECT COUNT(*) FROM pet'), q('How many cats?', "SELECT COUNT(*) FROM pet WHERE kind = 'cat'", 'easy')]));
  writeFileSync(join(root, 'dev.json'), JSON.stringify([q('How many dogs?', "SELECT COUNT(*) FROM pet WHERE kind = 'dog'", 'easy')]));
  writeFileSync(join(root, 'tables.json'), '[]');
});

describe('computeDatasetStats on a Spider-style directory', () => {
  it('finds the splits (not tables.json) and counts tables, rows, questions and shapes', () => {
    expect(listSplits(root)).toEqual(['dev', 'train_spider']);
    const stats = computeDatasetStats(root);
    expect(stats.databases).toEqual([{
      dbId: 'pets', tables: [{ name: 'owner', rows: 2 }, { name: 'pet', rows: 3 }], totalRows: 5,
      questionsBySplit: { dev: 1, train_spider: 2 },
    }]);
    expect(stats.totalQuestions).toBe(3);
    expect(stats.distinctShapes).toBe(2);
    expect(stats.splits.find((s) => s.name === 'train_spider')!.byDifficulty).toEqual({ unknown: 1, easy: 1 });
  });

  it('formats Markdown tables with only the tiers that occur', () => {
    const text = formatDatasetStats(computeDatasetStats(root));
    expect(text).toContain('| pets | 2 | 5 | 1 | 2 |');
    expect(text).toContain('| split | questions | databases | easy | unknown |');
    expect(text).toContain('| train_spider | 2 | 1 | 1 (50%) | 1 (50%) |');
  });

  it('names the missing split file', () => {
    expect(() => readSplit(root, 'test')).toThrow(DatasetLayoutError);
  });
});
