import { describe, expect, it } from 'vitest';
import { SqlShapeError, sqlShape } from '../../data/lib/sql-shape.js';

describe('sqlShape', () => {
  it('replaces literals with ? and identifiers with _', () => {
    expect(sqlShape("SELECT name FROM singer WHERE age > 30 AND country = 'France'"))
      .toBe('SELECT _ FROM _ WHERE _ > ? AND _ = ?');
  });

  it('gives queries that differ only in schema and values the same shape', () => {
    const a = sqlShape("SELECT T2.name FROM concert AS T1 JOIN venue AS T2 ON T1.venue_id = T2.id WHERE T1.status = 'done'");
    const b = sqlShape("select t2.title from loan as t1 join book as t2 on t1.book_id = t2.id where t1.kind = 'x'");
    expect(a).toBe(b);
    expect(a).toBe('SELECT _._ FROM _ AS _ JOIN _ AS _ ON _._ = _._ WHERE _._ = ?');
  });

  it('keeps structure: aggregates, ordering direction and set operations change the shape', () => {
    expect(sqlShape('SELECT MAX(x) FROM t')).not.toBe(sqlShape('SELECT MIN(x) FROM t'));
    expect(sqlShape('SELECT x FROM t ORDER BY y DESC LIMIT 1')).not.toBe(sqlShape('SELECT x FROM t ORDER BY y ASC LIMIT 1'));
    expect(sqlShape('SELECT a FROM t INTERSECT SELECT a FROM u')).toBe('SELECT _ FROM _ INTERSECT SELECT _ FROM _');
    expect(sqlShape("SELECT COUNT(*) FROM t WHERE strftime('%Y', d) = '2020'")).toBe('SELECT COUNT(*) FROM _ WHERE STRFTIME(?, _) = ?');
  });

  it('treats quoted identifiers as identifiers, escaped quotes inside strings as one literal, and <> as !=', () => {
    expect(sqlShape('SELECT "first name" FROM `t` WHERE a <> \'O\'\'Brien\';')).toBe('SELECT _ FROM _ WHERE _ != ?');
  });

  it('rejects text it cannot tokenise', () => {
    expect(() => sqlShape('SELECT # FROM t')).toThrow(SqlShapeError);
  });
});
