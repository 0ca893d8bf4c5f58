import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchemaReader, SchemaReaderCache, SqlSandboxError, UnknownTableError } from '../../envs/sql/sandbox/index.js';
import { buildConcertDb, hashTree, scratchDir } from './fixtures.js';

const scratch = scratchDir();
const dbPath = join(scratch.dir, 'concert.sqlite');
let reader: SchemaReader;
let before: Record<string, string>;

beforeAll(() => {
  buildConcertDb(dbPath);
  before = hashTree(scratch.dir);
  reader = SchemaReader.open(dbPath);
});

afterAll(() => {
  reader.close();
  scratch.cleanup();
});

describe('SchemaReader', () => {
  it('lists user tables in schema order', () => {
    expect(reader.tables()).toEqual(['stadium', 'singer', 'concert', 'big', 'wide']);
  });

  it('resolves names case-insensitively, ignoring quotes and a main. prefix', () => {
    expect(reader.resolveTable('SINGER')).toBe('singer');
    expect(reader.resolveTable(' "Concert" ')).toBe('concert');
    expect(reader.resolveTable('[stadium]')).toBe('stadium');
    expect(reader.resolveTable('main.big')).toBe('big');
    expect(reader.resolveTable('singers')).toBeUndefined();
    expect(reader.resolveTable('singer; DROP TABLE singer')).toBeUndefined();
  });

  it('describes columns, keys, defaults and row count', () => {
    const concert = reader.describe('Concert');
    expect(concert.name).toBe('concert');
    expect(concert.rowCount).toBe(12);
    expect(concert.columns[0]).toEqual({ name: 'concert_id', type: 'INTEGER', notNull: false, primaryKey: true, defaultValue: null });
    // `REFERENCES singer` names no column: the reader fills in singer's primary key.
    expect([...concert.foreignKeys].sort((a, b) => a.column.localeCompare(b.column))).toEqual([
      { column: 'singer_id', refTable: 'singer', refColumn: 'singer_id' },
      { column: 'stadium_id', refTable: 'stadium', refColumn: 'stadium_id' },
    ]);
    const stadium = reader.describe('stadium');
    expect(stadium.columns.find((c) => c.name === 'name')).toMatchObject({ notNull: true });
    expect(stadium.columns.find((c) => c.name === 'capacity')).toMatchObject({ defaultValue: '0' });
  });

  it('returns frozen cached results, so callers cannot corrupt the cache', () => {
    const described = reader.describe('singer');
    expect(reader.describe('singer')).toBe(described);
    expect(() => {
      (described.columns as unknown[]).length = 0;
    }).toThrow(TypeError);
    expect(() => {
      (described.columns[0] as { name: string }).name = 'x';
    }).toThrow(TypeError);
    expect(reader.describe('singer').columns).toHaveLength(4);
    const sampled = reader.sample('singer', 2);
    expect(reader.sample('singer', 2)).toBe(sampled);
    expect(() => {
      (sampled.rows[0] as unknown[])[1] = 'x';
    }).toThrow(TypeError);
    expect(reader.sample('singer', 3).rows).toHaveLength(3);
  });

  it('samples rows with cells rendered and cut', () => {
    expect(reader.sample('singer', 2)).toEqual({
      columns: ['singer_id', 'name', 'country', 'age'],
      rows: [
        [1, 'Adele', 'UK', 35],
        [2, 'Rosalía', 'Spain', 31],
      ],
    });
    const wide = reader.sample('wide', 5, 8);
    expect(wide.rows).toEqual([[1, 'xxxxxxxx…', "x'0001fe…", '4611686018427387904']]);
    expect(reader.sample('big', 1000).rows).toHaveLength(100);
    expect(reader.sample('big', -3).rows).toHaveLength(0);
  });

  it('throws UnknownTableError listing the tables', () => {
    expect(() => reader.describe('nope')).toThrow(UnknownTableError);
    expect(() => reader.sample('nope', 1)).toThrow(/Tables: stadium, singer, concert, big, wide/);
  });

  it('never modifies the file', () => {
    expect(hashTree(scratch.dir)).toEqual(before);
  });

  it('refuses a missing file with SqlSandboxError', () => {
    expect(() => SchemaReader.open(join(scratch.dir, 'missing.sqlite'))).toThrow(SqlSandboxError);
  });
});

describe('SchemaReaderCache', () => {
  it('opens one reader per file and closes them all', () => {
    const cache = new SchemaReaderCache();
    const a = cache.get(dbPath);
    expect(cache.get(join(scratch.dir, '.', 'concert.sqlite'))).toBe(a);
    // The same file by a relative path: the same reader (remembered under both names), closed once.
    const relativePath = relative(process.cwd(), dbPath);
    expect(relativePath).not.toBe(dbPath);
    expect(cache.get(relativePath)).toBe(a);
    expect(cache.get(relativePath)).toBe(a);
    cache.close();
    expect(() => a.tables()).toThrow();
    cache.close();
  });
});
