import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DatasetError,
  bundledDataDir,
  loadDataset,
  parseDatasetSource,
  parseQuestionEntries,
  tablesInSql,
} from '../../envs/sql/datasets/index.js';
import { QueryPool, SqlSandboxError } from '../../envs/sql/sandbox/index.js';
import { buildConcertDb, buildSpiderLayout, hashTree, scratchDir } from './fixtures.js';

const scratch = scratchDir('sqlenv-datasets-');
const spiderDir = join(scratch.dir, 'spider');
const birdDir = join(scratch.dir, 'bird');
const spiderSample = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/spider-sample');

const SPIDER_TRAIN = [
  // Spider's full entry shape, token fields included.
  {
    db_id: 'concert',
    query: 'SELECT count(*) FROM singer',
    query_toks: ['SELECT', 'count', '(', '*', ')', 'FROM', 'singer'],
    query_toks_no_value: ['select', 'count', '(', '*', ')', 'from', 'singer'],
    question: 'How many singers do we have?',
    question_toks: ['How', 'many', 'singers', 'do', 'we', 'have', '?'],
    sql: { select: [false, []] },
  },
  // Slimmed entries, as in the shared sample.
  { question: 'Which singers are from the UK?', query: 'SELECT name FROM singer WHERE country = "UK"', db_id: 'concert' },
  { question: 'Concerts per stadium?', query: 'SELECT T2.name, count(*) FROM concert AS T1 JOIN Stadium AS T2 ON T1.stadium_id = T2.stadium_id GROUP BY T2.name', db_id: 'concert' },
  { question: 'Broken gold', query: 'SELECT nope FROM singer', db_id: 'concert' },
  { question: 'Missing database', query: 'SELECT 1', db_id: 'atlantis' },
  { question: 'No SQL', db_id: 'concert' },
  { question: 'Runaway gold', query: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c', db_id: 'concert' },
];

beforeAll(() => {
  buildSpiderLayout(spiderDir, {
    train_spider: SPIDER_TRAIN,
    dev: [{ question: 'Oldest singer?', query: 'SELECT name FROM singer ORDER BY age DESC LIMIT 1', db_id: 'concert', difficulty: 'easy', tables: ['singer'] }],
  });
  writeFileSync(join(spiderDir, 'tables.json'), '[]');
  mkdirSync(join(birdDir, 'dev', 'dev_databases', 'concert'), { recursive: true });
  buildConcertDb(join(birdDir, 'dev', 'dev_databases', 'concert', 'concert.sqlite'));
  writeFileSync(
    join(birdDir, 'dev', 'dev.json'),
    JSON.stringify([
      { question_id: 7, db_id: 'concert', question: 'Average age of UK singers?', evidence: 'UK refers to country = \'UK\'', SQL: "SELECT avg(age) FROM singer WHERE country = 'UK'", difficulty: 'simple' },
      { question_id: 9, db_id: 'concert', question: 'Bad', evidence: '', SQL: 'SELEC 1', difficulty: 'moderate' },
    ]),
  );
});

afterAll(() => scratch.cleanup());

describe('Spider loader', () => {
  it('loads full and slimmed entries, skips what cannot run, and keeps the files unchanged', async () => {
    const before = hashTree(spiderDir);
    const ds = await loadDataset({ kind: 'spider', dir: spiderDir }, 'train', { goldLimits: { timeoutMs: 500 } });
    try {
      expect(ds.questions.map((q) => q.id)).toEqual(['train-0000', 'train-0001', 'train-0002']);
      expect(ds.questions[2]).toMatchObject({ dbId: 'concert', tables: ['stadium', 'concert'] });
      const reasons = Object.fromEntries(ds.skipped.map((s) => [s.id, s.reason]));
      expect(Object.keys(reasons).sort()).toEqual(['train-0003', 'train-0004', 'train-0005', 'train-0006']);
      expect(reasons['train-0003']).toMatch(/gold SQL failed \(sql_error: no such column: nope/);
      expect(reasons['train-0004']).toMatch(/database "atlantis" not found/);
      expect(reasons['train-0005']).toMatch(/no "query"/);
      expect(reasons['train-0006']).toMatch(/gold SQL failed \(timeout/);
      expect(await ds.goldResult(ds.questions[0]!)).toEqual({ columns: ['count(*)'], rows: [[6]], rowCount: 1, rowCountExact: true });
      expect((await ds.goldResult('train-0001')).rows).toEqual([['Adele'], ['Ed']]);
      expect(ds.goldResult('train-0001')).toBe(ds.goldResult('train-0001'));
      expect(ds.dbPath('concert')).toBe(join(spiderDir, 'database', 'concert', 'concert.sqlite'));
      expect(() => ds.dbPath('atlantis')).toThrow(DatasetError);
      expect(ds.dbIds).toEqual(['concert']);
      expect(ds.question('train-0002')?.question).toBe('Concerts per stadium?');
    } finally {
      await ds.close();
    }
    expect(hashTree(spiderDir)).toEqual(before);
  });

  it('maps --split to <split>.json and keeps difficulty and tables given by the file', async () => {
    const ds = await loadDataset(spiderDir, 'dev');
    try {
      expect(ds.name).toBe(spiderDir);
      expect(ds.questions).toEqual([
        { id: 'dev-0000', question: 'Oldest singer?', goldSql: 'SELECT name FROM singer ORDER BY age DESC LIMIT 1', dbId: 'concert', difficulty: 'easy', tables: ['singer'] },
      ]);
      expect((await ds.goldResult(ds.questions[0]!)).rows).toEqual([['Youssou N’Dour']]);
    } finally {
      await ds.close();
    }
  });

  it('names the splits and folders that exist when something is missing', async () => {
    // Spider's train_spider.json is listed as the split that reads it, `train`.
    await expect(loadDataset({ kind: 'spider', dir: spiderDir }, 'test')).rejects.toThrow(/no split "test".*Splits here: dev, train\.$/);
    // The bundled build's build-info.json is not a split.
    await expect(loadDataset('bundled', 'nope')).rejects.toThrow(/Splits here: eval, eval_unseen_db, smoke, train, validation, validation_unseen_db\.$/);
    await expect(loadDataset({ kind: 'spider', dir: join(scratch.dir, 'nowhere') }, 'dev')).rejects.toThrow(DatasetError);
    const noDb = join(scratch.dir, 'no-db');
    mkdirSync(noDb);
    writeFileSync(join(noDb, 'dev.json'), '[]');
    await expect(loadDataset(noDb, 'dev')).rejects.toThrow(/no database\/ folder.*Found: dev.json/);
    writeFileSync(join(noDb, 'bad.json'), '{"not": "an array"}');
    mkdirSync(join(noDb, 'database'));
    await expect(loadDataset(noDb, 'bad')).rejects.toThrow(/must hold a JSON array/);
  });

  it('can defer gold SQL to first use, on a pool owned by the caller', async () => {
    const pool = new QueryPool({ size: 1 });
    try {
      const ds = await loadDataset({ kind: 'spider', dir: spiderDir }, 'train', { validateGold: false, pool });
      expect(ds.questions).toHaveLength(5); // the broken and runaway gold are only found when run
      await expect(ds.goldResult('train-0003')).rejects.toBeInstanceOf(SqlSandboxError);
      expect((await ds.goldResult('train-0000')).rows).toEqual([[6]]);
      await ds.close();
      // The dataset did not close the caller's pool.
      expect((await pool.run(ds.dbPath('concert'), 'SELECT 1')).rows).toEqual([[1]]);
    } finally {
      await pool.close();
    }
  });

  it('filters by database id', async () => {
    const ds = await loadDataset(spiderDir, 'train', { dbIds: ['atlantis'] });
    expect(ds.questions).toHaveLength(0);
    expect(ds.skipped.map((s) => s.id)).toContain('train-0004');
    await ds.close();
  });
});

describe('BIRD loader', () => {
  it('reads question_id, SQL, evidence and difficulty from <dir>/<split>/', async () => {
    const ds = await loadDataset({ kind: 'bird', dir: birdDir }, 'dev');
    try {
      expect(ds.format).toBe('bird');
      expect(ds.name).toBe(`bird:${birdDir}`);
      expect(ds.questions).toEqual([
        {
          id: 'dev-7',
          question: 'Average age of UK singers?',
          goldSql: "SELECT avg(age) FROM singer WHERE country = 'UK'",
          dbId: 'concert',
          difficulty: 'simple',
          evidence: "UK refers to country = 'UK'",
          tables: ['singer'],
        },
      ]);
      expect(ds.skipped).toEqual([{ id: 'dev-9', reason: expect.stringMatching(/gold SQL failed \(sql_error/) as string }]);
      expect((await ds.goldResult('dev-7')).rows).toEqual([[34]]);
    } finally {
      await ds.close();
    }
    // The split folder itself works as the directory too.
    const direct = await loadDataset({ kind: 'bird', dir: join(birdDir, 'dev') }, 'dev');
    expect(direct.questions).toHaveLength(1);
    await direct.close();
  });

  it('says where it looked when the split is missing', async () => {
    await expect(loadDataset({ kind: 'bird', dir: birdDir }, 'train')).rejects.toThrow(/no split "train".*Splits here: dev/);
  });
});

describe('dataset helpers', () => {
  it('parses command-line sources', () => {
    expect(parseDatasetSource('bundled')).toBe('bundled');
    expect(parseDatasetSource('spider:/data/spider')).toEqual({ kind: 'spider', dir: '/data/spider' });
    expect(parseDatasetSource('BIRD:../bird')).toEqual({ kind: 'bird', dir: '../bird' });
    expect(parseDatasetSource('./mydata')).toBe('./mydata');
    expect(() => parseDatasetSource(' ')).toThrow(DatasetError);
  });

  it('gives stable ids, unique even when a file repeats its own', () => {
    const entries = [
      { id: 'a', question: 'q', query: 'SELECT 1', db_id: 'd' },
      { id: 'a', question: 'q', query: 'SELECT 1', db_id: 'd' },
      { question: 'q', query: 'SELECT 1', db_id: 'd', hardness: 'hard' },
      'not an object',
    ];
    const { questions, skipped } = parseQuestionEntries(entries, 'spider', 'eval');
    expect(questions.map((q) => q.id)).toEqual(['a', 'eval-0001', 'eval-0002']);
    expect(questions[2]!.difficulty).toBe('hard');
    expect(skipped).toEqual([{ id: 'eval-0003', reason: 'entry 3 has no "question", "query", "db_id"' }]);
  });

  it('finds the tables a query names, ignoring strings and comments', () => {
    const tables = ['singer', 'concert', 'stadium'];
    expect(tablesInSql("SELECT * FROM Singer AS s JOIN \"concert\" c -- stadium\nWHERE s.name = 'stadium'", tables)).toEqual(['singer', 'concert']);
  });

  it('resolves the bundled data directory under the package root', () => {
    expect(bundledDataDir()).toBe(resolve(dirname(fileURLToPath(import.meta.url)), '../../data/bundled'));
  });
});

describe.skipIf(!existsSync(join(spiderSample, 'train_spider.json')))('Spider sample (shared, real data)', () => {
  it('loads train with every gold query run and file-position ids', async () => {
    const ds = await loadDataset({ kind: 'spider', dir: spiderSample }, 'train');
    try {
      expect(ds.questions.length + ds.skipped.length).toBe(987);
      expect(ds.questions.length).toBeGreaterThanOrEqual(980);
      expect(ds.questions[0]!.id).toBe('train-0000');
      expect(ds.dbIds).toHaveLength(11);
      const gold = await ds.goldResult(ds.questions[0]!);
      expect(gold.columns.length).toBeGreaterThan(0);
      expect(ds.questions.every((q) => (q.tables?.length ?? 0) > 0)).toBe(true);
    } finally {
      await ds.close();
    }
  });
});

describe('bundled dataset (committed in data/bundled)', () => {
  it("loads the smoke split from the package's data/bundled with every gold query running", async () => {
    const ds = await loadDataset('bundled', 'smoke');
    try {
      expect(ds.name).toBe('bundled');
      expect(ds.questions.length).toBeGreaterThan(0);
      expect(ds.skipped).toEqual([]);
      expect(ds.questions.every((q) => q.id.startsWith('smoke-') && (q.tables?.length ?? 0) > 0)).toBe(true);
      expect(existsSync(ds.dbPath(ds.questions[0]!.dbId))).toBe(true);
    } finally {
      await ds.close();
    }
  });
});
