import { describe, expect, it } from 'vitest';
import { identifierOf, keywordOf, normalizeSqlSpacing, tokenizeSql } from '../../envs/sql/sandbox/sql-tokens.js';

function kinds(sql: string): string[] {
  const r = tokenizeSql(sql);
  if (!r.ok) throw new Error(r.message);
  return r.tokens.filter((t) => t.kind !== 'space').map((t) => `${t.kind}:${t.text}`);
}

describe('tokenizeSql', () => {
  it('keeps literals, quoted identifiers and comments whole', () => {
    expect(kinds(`SELECT 'a;''b', "c""d", [e f], \`g\`, x'0A' -- x;\n/* y; */ ;`)).toEqual([
      'word:SELECT',
      "string:'a;''b'",
      'punct:,',
      'quoted:"c""d"',
      'punct:,',
      'quoted:[e f]',
      'punct:,',
      'quoted:`g`',
      'punct:,',
      "blob:x'0A'",
      'comment:-- x;',
      'comment:/* y; */',
      'semicolon:;',
    ]);
  });

  it('tracks parenthesis depth', () => {
    const r = tokenizeSql('WITH a AS (SELECT (1)) SELECT 2');
    if (!r.ok) throw new Error(r.message);
    const selects = r.tokens.filter((t) => keywordOf(t) === 'SELECT').map((t) => t.depth);
    expect(selects).toEqual([1, 0]);
  });

  it('reads numbers, variables and two-character operators', () => {
    expect(kinds('1.5e+3 ?1 :name @v $x <> ||')).toEqual([
      'number:1.5e+3',
      'variable:?1',
      'variable::name',
      'variable:@v',
      'variable:$x',
      'punct:<>',
      'punct:||',
    ]);
  });

  it('fails on unterminated literals, and runs an unterminated block comment to the end', () => {
    expect(tokenizeSql("SELECT 'x")).toMatchObject({ ok: false });
    expect(tokenizeSql('SELECT "x')).toMatchObject({ ok: false });
    expect(tokenizeSql('SELECT [x')).toMatchObject({ ok: false });
    expect(kinds('SELECT 1 /* ; DROP')).toEqual(['word:SELECT', 'number:1', 'comment:/* ; DROP']);
  });

  it('treats non-ASCII letters as identifier characters, like SQLite', () => {
    expect(kinds('SELECT ＤＲＯＰ, Björk')).toEqual(['word:SELECT', 'word:ＤＲＯＰ', 'punct:,', 'word:Björk']);
  });

  it('unquotes identifiers', () => {
    const r = tokenizeSql('"a""b" [c d] `e` f');
    if (!r.ok) throw new Error(r.message);
    expect(r.tokens.filter((t) => t.kind !== 'space').map(identifierOf)).toEqual(['a"b', 'c d', 'e', 'f']);
  });

  it('normalises Unicode spacing only outside literals', () => {
    const r = tokenizeSql("SELECT\u3000'\u3000'\ufeff");
    if (!r.ok) throw new Error(r.message);
    expect(normalizeSqlSpacing(r.tokens)).toBe("SELECT '\u3000'");
  });
});
