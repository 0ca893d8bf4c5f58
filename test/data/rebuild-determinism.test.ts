/**
 * The committed data/bundled must equal a fresh build: same question files byte for byte,
 * same logical database content, and — with the same SQLite library — the same file bytes.
 * This is what keeps the committed data from drifting away from its generator.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDataset, type BuildReport } from '../../data/generator/build-dataset.js';
import { canonicalDigest } from '../../data/lib/canonical-dump.js';
import { buildInfoPath, bundledRoot, databasePath, type BuildInfo } from '../../data/lib/spider-layout.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const tempDir = useTempDirs('sqlenv-data-');
const committed = bundledRoot();
let fresh: string;
let report: BuildReport;

beforeAll(() => {
  fresh = tempDir();
  report = buildDataset({ outDir: fresh });
});

const jsonFiles = () => readdirSync(committed).filter((f) => f.endsWith('.json'));
const currentSqlite = (): string => {
  const db = new Database(':memory:');
  try { return db.prepare('SELECT sqlite_version()').pluck().get() as string; } finally { db.close(); }
};
const recorded = JSON.parse(readFileSync(buildInfoPath(committed), 'utf8')) as BuildInfo;

describe('rebuilding the bundled dataset', () => {
  it('writes question, split and tables files identical to the committed ones', () => {
    expect(jsonFiles().sort()).toEqual(['build-info.json', 'eval.json', 'eval_unseen_db.json', 'smoke.json', 'tables.json', 'train.json', 'validation.json', 'validation_unseen_db.json']);
    for (const f of jsonFiles()) {
      expect(readFileSync(join(fresh, f), 'utf8'), f).toBe(readFileSync(join(committed, f), 'utf8'));
    }
  });

  it('draws validation from the extra questions and appends the rest to train, leaving the test splits as they were', () => {
    const without = tempDir();
    buildDataset({ outDir: without, trainExtraRounds: 0, validationFraction: 0 });
    for (const f of jsonFiles().filter((x) => !['train.json', 'validation.json', 'build-info.json'].includes(x))) {
      expect(readFileSync(join(without, f), 'utf8'), f).toBe(readFileSync(join(committed, f), 'utf8'));
    }
    type Entry = { question: string; query: string; db_id: string };
    const read = (dir: string, split: string) => JSON.parse(readFileSync(join(dir, `${split}.json`), 'utf8')) as Entry[];
    const base = read(without, 'train');
    const train = read(committed, 'train');
    const validation = read(committed, 'validation');
    expect(read(without, 'validation')).toEqual([]);
    // train's own questions come first and whole: a model pre-trained on them (the bundled base) has seen no validation question.
    expect(train.slice(0, base.length)).toEqual(base);
    const baseText = new Set(base.flatMap((q) => [q.question, q.query]));
    for (const q of validation) expect(baseText.has(q.question) || baseText.has(q.query), q.question).toBe(false);
    expect(train.length).toBeGreaterThan(base.length * 4);
    expect(validation.length).toBeGreaterThan(150);
    const extraDbs = new Set(train.slice(base.length).map((q) => q.db_id));
    expect(extraDbs).toEqual(new Set(base.map((q) => q.db_id))); // the training databases only
    expect(new Set(validation.map((q) => q.db_id))).toEqual(extraDbs);
  });

  it('refuses a validation fraction without extra rounds to draw it from', () => {
    const out = tempDir();
    expect(() => buildDataset({ outDir: out, trainExtraRounds: 0 })).toThrow(/needs trainExtraRounds >= 1/);
  });

  it('writes databases with the same logical content (schema and rows)', () => {
    expect(report.databases.length).toBe(recorded.databases);
    for (const { id } of report.databases) {
      expect(canonicalDigest(databasePath(fresh, id)), id).toBe(canonicalDigest(databasePath(committed, id)));
    }
  });

  it.skipIf(currentSqlite() !== recorded.sqlite_version)('writes byte-identical database files with the same SQLite version', () => {
    for (const { id } of report.databases) {
      expect(readFileSync(databasePath(fresh, id)).equals(readFileSync(databasePath(committed, id))), id).toBe(true);
    }
  });

  it('the digest notices a changed row', () => {
    const copy = join(fresh, 'changed.sqlite');
    const src = new Database(databasePath(fresh, 'concerts'), { readonly: true });
    src.exec(`VACUUM INTO '${copy}'`);
    src.close();
    const before = canonicalDigest(copy);
    const db = new Database(copy);
    db.prepare('UPDATE venue SET capacity = capacity + 1 WHERE id = 1').run();
    db.close();
    expect(canonicalDigest(copy)).not.toBe(before);
  });
});
