import { describe, expect, it } from 'vitest';
import { sqlLiterals, writesLiterals } from '../../envs/sql/episode/sql-literals.js';

describe('sqlLiterals / writesLiterals', () => {
  it('reads string literals and numbers, not identifiers, keywords or comments', () => {
    expect(sqlLiterals("SELECT name FROM t WHERE city = 'O''Hara' AND price < 3.50 -- 'not me' 7")).toEqual(["O'Hara", '3.5']);
    expect(sqlLiterals('SELECT "2020", [x1], t2.col FROM t2 LIMIT 10')).toEqual(['10']);
    expect(sqlLiterals("SELECT * FROM t WHERE d BETWEEN '2002-01-26' AND '2002-07-31'")).toEqual(['2002-01-26', '2002-07-31']);
  });

  it('reads numbers by value, as SQLite does', () => {
    expect(sqlLiterals('SELECT 0x10, 1e2, 007, .5 FROM t')).toEqual(['16', '100', '7', '0.5']);
  });

  it('is empty for SQL that does not lex', () => {
    expect(sqlLiterals("SELECT * FROM t WHERE a = 'open")).toEqual([]);
  });

  it('asks for every gold value, in any order, with letter case counting', () => {
    const gold = sqlLiterals("SELECT count(*) FROM movie WHERE genre = 'science fiction' AND release_date < '2010-02-07'");
    expect(writesLiterals("SELECT count(*) FROM film WHERE release_date < '2010-02-07' AND genre = 'science fiction'", gold)).toBe(true);
    expect(writesLiterals("SELECT count(*) FROM movie WHERE genre = 'science fiction' AND release_date < '2010-02-02'", gold)).toBe(false);
    expect(writesLiterals("SELECT count(*) FROM movie WHERE genre = 'Science Fiction' AND release_date < '2010-02-07'", gold)).toBe(false);
    // A value written as an identifier is not the value.
    expect(writesLiterals('SELECT count(*) FROM movie WHERE genre = "science fiction"', ['science fiction'])).toBe(false);
    expect(writesLiterals('SELECT 1', [])).toBe(true);
  });
});
