import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../src/base/rng.js';
import { checkReadOnlySql, openReadOnlyDatabase, type SqliteConnection } from '../../envs/sql/sandbox/index.js';
import { buildConcertDb, hashTree, scratchDir } from './fixtures.js';
import { hostileCorpus } from './hostile-statements.js';

/**
 * Differential fuzzing of the static screening against SQLite itself: whatever the screening
 * accepts, SQLite must see as ONE statement that only reads (or fail to prepare it). Mutations
 * splice statements, comments, literals, Unicode spacing and case changes into reads and writes.
 */
const scratch = scratchDir('sqlenv-fuzz-');
const dbPath = join(scratch.dir, 'concert.sqlite');

const READS = [
  'SELECT name FROM singer WHERE age > 30',
  "SELECT count(*) FROM concert WHERE title = 'Tour 1'",
  'WITH t AS (SELECT singer_id FROM concert) SELECT * FROM t',
  'VALUES (1), (2)',
  'PRAGMA table_info(singer)',
  'EXPLAIN QUERY PLAN SELECT * FROM big',
  'SELECT "name", [age] FROM `singer`',
];
const PIECES = [';', "'", '"', '`', '[', ']', '(', ')', '--', '/*', '*/', '\n', ' ', '\u00a0', '\u200b', '\ufeff', 'x', '$', '?'];
const KEYWORDS = ['DELETE FROM singer', 'DROP TABLE singer', 'ATTACH ":memory:" AS m', 'BEGIN', 'PRAGMA writable_schema=1', 'CREATE TEMP TABLE t(a)', 'SELECT 1'];

function mutate(rng: Rng, base: string): string {
  let sql = base;
  const edits = 1 + rng.int(4);
  for (let e = 0; e < edits; e++) {
    const at = rng.int(sql.length + 1);
    switch (rng.int(6)) {
      case 0: // insert a lexically significant piece
        sql = sql.slice(0, at) + rng.choice(PIECES) + sql.slice(at);
        break;
      case 1: // delete a character
        sql = sql.slice(0, at) + sql.slice(at + 1);
        break;
      case 2: // splice another statement in
        sql = sql.slice(0, at) + rng.choice(['; ', ';\n', ' ', '/*;*/']) + rng.choice(KEYWORDS) + sql.slice(at);
        break;
      case 3: // flip case
        sql = rng.float() < 0.5 ? sql.toUpperCase() : sql.toLowerCase();
        break;
      case 4: // wrap
        sql = rng.choice(['EXPLAIN ', 'WITH x AS (SELECT 1) ', '/* c */ ', '-- c\n', '\ufeff']) + sql;
        break;
      default: // append
        sql = sql + rng.choice(['; ', ';', ' -- ', ' /* ', "'", ';' + rng.choice(KEYWORDS)]);
    }
  }
  return sql;
}

let db: SqliteConnection;
let before: Record<string, string>;

beforeAll(() => {
  buildConcertDb(dbPath);
  before = hashTree(scratch.dir);
  db = openReadOnlyDatabase(dbPath);
});

afterAll(() => {
  db.close();
  scratch.cleanup();
});

describe('screening fuzz (differential against SQLite)', () => {
  it('every accepted mutation is, to SQLite, a single statement that only reads', () => {
    const rng = new Rng(20240611);
    const bases = [...READS, ...hostileCorpus({ evilFile: '/nonexistent/e', copyFile: '/nonexistent/c' }).map(([sql]) => sql)];
    let accepted = 0;
    let prepared = 0;
    for (let i = 0; i < 4000; i++) {
      const sql = mutate(rng, rng.choice(bases));
      const verdict = checkReadOnlySql(sql);
      if (!verdict.ok) {
        expect(['forbidden_sql', 'sql_error']).toContain(verdict.errorType);
        expect(verdict.message.length).toBeGreaterThan(10);
        continue;
      }
      accepted++;
      let stmt: Database.Statement | undefined;
      try {
        stmt = db.prepare(verdict.sql);
      } catch (e) {
        // Syntax errors are fine; SQLite seeing several statements is a screening bug.
        expect((e as Error).message, sql).not.toMatch(/more than one statement/);
        continue;
      }
      prepared++;
      expect({ sql, reader: stmt.reader, readonly: stmt.readonly }).toEqual({ sql, reader: true, readonly: true });
    }
    // The fuzz must exercise both sides.
    expect(accepted).toBeGreaterThan(200);
    expect(prepared).toBeGreaterThan(50);
    expect(hashTree(scratch.dir)).toEqual(before);
  });
});
