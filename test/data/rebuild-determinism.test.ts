/**
 * The committed data/bundled must equal a fresh build: same question files byte for byte,
 * same logical database content, and — with the same SQLite library — the same file bytes.
 * This is what keeps the committed data from drifting away from its generator.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDataset, type BuildReport } from '../../data/generator/build-dataset.js';
import { canonicalDigest } from '../../data/lib/canonical-dump.js';
import { buildInfoPath, bundledRoot, databasePath, type BuildInfo } from '../../data/lib/spider-layout.js';

const committed = bundledRoot();
let fresh: string;
let report: BuildReport;

beforeAll(() => {
  fresh = mkdtempSync(join(tmpdir(), 'sqlenv-data-'));
  report = buildDataset({ outDir: fresh });
});
afterAll(() => {
  rmSync(fresh, { recursive: true, force: true });
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

  it('appends the extra train questions after the split, leaving every other split as it was', () => {
    const without = mkdtempSync(join(tmpdir(), 'sqlenv-data-'));
    try {
      buildDataset({ outDir: without, trainExtraRounds: 0 });
      for (const f of jsonFiles().filter((x) => x !== 'train.json' && x !== 'build-info.json')) {
        expect(readFileSync(join(without, f), 'utf8'), f).toBe(readFileSync(join(committed, f), 'utf8'));
      }
      type Entry = { question: string; query: string; db_id: string };
      const read = (dir: string) => JSON.parse(readFileSync(join(dir, 'train.json'), 'utf8')) as Entry[];
      const base = read(without);
      const train = read(committed);
      expect(train.slice(0, base.length)).toEqual(base);
      expect(train.length).toBeGreaterThan(base.length * 4);
      const extraDbs = new Set(train.slice(base.length).map((q) => q.db_id));
      expect(extraDbs).toEqual(new Set(base.map((q) => q.db_id))); // the training databases only
    } finally {
      rmSync(without, { recursive: true, force: true });
    }
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
