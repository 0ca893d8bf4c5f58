import { describe, expect, it } from 'vitest';
import { cutCell, displayCell, renderedCellBytes, toSqlCell } from '../../envs/sql/sandbox/cells.js';
import { doubleQuotedToString, unresolvedDoubleQuoted } from '../../envs/sql/sandbox/double-quoted-strings.js';
import { resolveQueryLimits, DEFAULT_QUERY_LIMITS } from '../../envs/sql/sandbox/limits.js';

describe('cells', () => {
  it('renders BigInt, blobs and non-finite numbers as JSON-safe values', () => {
    expect(toSqlCell(42n)).toBe(42);
    expect(toSqlCell(-(2n ** 53n) + 1n)).toBe(-(2 ** 53) + 1);
    expect(toSqlCell(2n ** 64n)).toBe('18446744073709551616');
    expect(toSqlCell(Buffer.from([1, 255]))).toBe("x'01ff'");
    expect(toSqlCell(Infinity)).toBe('Infinity');
    expect(toSqlCell(null)).toBeNull();
    expect(toSqlCell('t')).toBe('t');
    expect(toSqlCell(1.5)).toBe(1.5);
  });

  it('sizes blobs before rendering them', () => {
    expect(renderedCellBytes(Buffer.alloc(10))).toBe(23);
    expect(renderedCellBytes('abc')).toBe(5);
    expect(renderedCellBytes(1)).toBe(8);
  });

  it('cuts text and blobs for display, never numbers (big integers included)', () => {
    expect(displayCell('abcdef', 3)).toEqual({ cell: 'abc…', cut: true });
    expect(displayCell(Buffer.from([1, 2, 3]), 4)).toEqual({ cell: "x'01…", cut: true });
    expect(displayCell(2n ** 64n, 3)).toEqual({ cell: '18446744073709551616', cut: false });
    expect(displayCell(123456.5, 3)).toEqual({ cell: 123456.5, cut: false });
  });

  it('cuts long text cells only', () => {
    expect(cutCell('abcdef', 3)).toEqual({ cell: 'abc…', cut: true });
    expect(cutCell('abc', 3)).toEqual({ cell: 'abc', cut: false });
    expect(cutCell(123456, 3)).toEqual({ cell: 123456, cut: false });
  });
});

describe('double-quoted strings (SQLite legacy rule)', () => {
  it('recognises the driver error and rewrites only matching double-quoted tokens', () => {
    const name = unresolvedDoubleQuoted('no such column: "Paris" - should this be a string literal in single-quotes?');
    expect(name).toBe('Paris');
    expect(unresolvedDoubleQuoted('no such column: x')).toBeUndefined();
    expect(doubleQuotedToString(`SELECT "name" FROM t WHERE c = "Paris" AND d = 'Paris'`, 'Paris')).toBe(
      `SELECT "name" FROM t WHERE c = 'Paris' AND d = 'Paris'`,
    );
    expect(doubleQuotedToString(`SELECT "it's"`, "it's")).toBe(`SELECT 'it''s'`);
    expect(doubleQuotedToString('SELECT 1', 'Paris')).toBeUndefined();
  });
});

describe('resolveQueryLimits', () => {
  it('merges over defaults and rejects non-positive or fractional values', () => {
    expect(resolveQueryLimits({ timeoutMs: 500 })).toEqual({ ...DEFAULT_QUERY_LIMITS, timeoutMs: 500 });
    expect(() => resolveQueryLimits({ maxRows: 0 })).toThrow(/maxRows/);
    expect(() => resolveQueryLimits({ fetchRows: 1.5 })).toThrow(/fetchRows/);
  });
});
