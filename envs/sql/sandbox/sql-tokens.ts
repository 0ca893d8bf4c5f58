/**
 * A lexer that splits SQL the way SQLite's own tokenizer does, so that the static screening sees
 * the statement SQLite will see: comments, string literals and quoted identifiers are single
 * tokens, and only an unquoted `;` ends a statement.
 */

/** What a token is. `space` and `comment` are trivia: they never change a statement's meaning. */
export type SqlTokenKind =
  | 'word' // keyword or bare identifier (letters, digits, _, $, any non-ASCII character)
  | 'quoted' // "identifier", `identifier` or [identifier]
  | 'string' // 'text' literal
  | 'blob' // x'hex' literal
  | 'number'
  | 'variable' // ?, ?1, :name, @name, $name
  | 'punct' // operators and ( ) , .
  | 'semicolon'
  | 'space'
  | 'comment';

/** One token: its kind, its source text and where it starts. */
export interface SqlToken {
  kind: SqlTokenKind;
  /** The exact source text (for `space` tokens made of Unicode spacing, see {@link tokenizeSql}). */
  text: string;
  /** Offset of the first character in the source string. */
  start: number;
  /** Parenthesis depth before this token (0 at top level). */
  depth: number;
}

/** Tokens of a SQL string, or the first lexical error (an unterminated literal). */
export type TokenizeResult = { ok: true; tokens: SqlToken[] } | { ok: false; message: string };

/** ASCII whitespace as SQLite knows it: space, \t, \n, \v, \f, \r. */
function isAsciiSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

/**
 * Unicode characters that look like spacing. SQLite treats every non-ASCII character as part of
 * an identifier, so `SELECT\u00a01` is a syntax error to SQLite; the screening reports them as
 * `space` tokens and {@link normalizeSqlSpacing} rewrites them to plain spaces (or nothing, for
 * zero-width characters) so that copied-and-pasted SQL still runs.
 */
function isUnicodeSpace(code: number): boolean {
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    code === 0x180e ||
    (code >= 0x2000 && code <= 0x200d) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x2060 ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

function isZeroWidth(code: number): boolean {
  return code === 0x180e || (code >= 0x200b && code <= 0x200d) || code === 0x2060 || code === 0xfeff;
}

function isSpace(code: number): boolean {
  return isAsciiSpace(code) || (code >= 0x80 && isUnicodeSpace(code));
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Letters, digits, `_`, `$`, and any non-ASCII character that is not spacing (SQLite's rule). */
function isWordCode(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    isDigit(code) ||
    code === 95 ||
    code === 36 ||
    (code >= 0x80 && !isUnicodeSpace(code))
  );
}

const CHAR = {
  dash: 0x2d,
  slash: 0x2f,
  star: 0x2a,
  plus: 0x2b,
  dot: 0x2e,
  singleQuote: 0x27,
  doubleQuote: 0x22,
  backtick: 0x60,
  openBracket: 0x5b,
  openParen: 0x28,
  closeParen: 0x29,
  semicolon: 0x3b,
  question: 0x3f,
  colon: 0x3a,
  at: 0x40,
  dollar: 0x24,
  x: 0x78,
  X: 0x58,
  e: 0x65,
  E: 0x45,
} as const;

const TWO_CHAR_OPERATORS = new Set(['||', '<=', '>=', '==', '!=', '<>', '<<', '>>', '->']);

/**
 * Split `sql` into tokens, trivia included. Fails only on an unterminated string literal or
 * quoted identifier (an unterminated block comment runs to the end, as in SQLite).
 *
 * @example
 * ```ts
 * const r = tokenizeSql("SELECT 'a;b' -- c\n; DROP TABLE t");
 * // r.ok && r.tokens.filter(t => t.kind === 'semicolon').length === 1
 * ```
 */
export function tokenizeSql(sql: string): TokenizeResult {
  const tokens: SqlToken[] = [];
  let depth = 0;
  let i = 0;
  const push = (kind: SqlTokenKind, end: number): void => {
    tokens.push({ kind, text: sql.slice(i, end), start: i, depth });
    i = end;
  };
  while (i < sql.length) {
    const code = sql.charCodeAt(i);
    const next = sql.charCodeAt(i + 1); // NaN past the end: matches nothing below
    if (isSpace(code)) {
      let j = i + 1;
      while (j < sql.length && isSpace(sql.charCodeAt(j))) j++;
      push('space', j);
    } else if (code === CHAR.dash && next === CHAR.dash) {
      const nl = sql.indexOf('\n', i);
      push('comment', nl === -1 ? sql.length : nl);
    } else if (code === CHAR.slash && next === CHAR.star) {
      const close = sql.indexOf('*/', i + 2);
      push('comment', close === -1 ? sql.length : close + 2);
    } else if (code === CHAR.singleQuote) {
      const end = endOfQuoted(sql, i, "'");
      if (end === -1) return { ok: false, message: `unterminated string literal starting at character ${i + 1}` };
      push('string', end);
    } else if ((code === CHAR.x || code === CHAR.X) && next === CHAR.singleQuote) {
      const end = endOfQuoted(sql, i + 1, "'");
      if (end === -1) return { ok: false, message: `unterminated blob literal starting at character ${i + 1}` };
      push('blob', end);
    } else if (code === CHAR.doubleQuote || code === CHAR.backtick) {
      const end = endOfQuoted(sql, i, sql[i]!);
      if (end === -1) return { ok: false, message: `unterminated quoted identifier starting at character ${i + 1}` };
      push('quoted', end);
    } else if (code === CHAR.openBracket) {
      const close = sql.indexOf(']', i + 1);
      if (close === -1) return { ok: false, message: `unterminated [identifier] starting at character ${i + 1}` };
      push('quoted', close + 1);
    } else if (isDigit(code) || (code === CHAR.dot && isDigit(next))) {
      let j = i + 1;
      for (;;) {
        const c = sql.charCodeAt(j);
        // Numbers are ASCII letters, digits, `_` and dots (1.5e3, 0x1F); `$` and non-ASCII end them.
        if (!(isWordCode(c) || c === CHAR.dot) || c >= 0x80 || c === CHAR.dollar) break;
        // An exponent sign belongs to the number: 1e+5.
        const after = sql.charCodeAt(j + 1);
        if ((c === CHAR.e || c === CHAR.E) && (after === CHAR.plus || after === CHAR.dash)) j++;
        j++;
      }
      push('number', j);
    } else if (
      code === CHAR.question ||
      code === CHAR.colon ||
      code === CHAR.at ||
      (code === CHAR.dollar && isWordCode(next))
    ) {
      let j = i + 1;
      while (j < sql.length && isWordCode(sql.charCodeAt(j))) j++;
      push('variable', j);
    } else if (isWordCode(code)) {
      let j = i + 1;
      while (j < sql.length && isWordCode(sql.charCodeAt(j))) j++;
      push('word', j);
    } else if (code === CHAR.semicolon) {
      push('semicolon', i + 1);
    } else if (code === CHAR.openParen) {
      push('punct', i + 1);
      depth++;
    } else if (code === CHAR.closeParen) {
      depth = Math.max(0, depth - 1);
      push('punct', i + 1);
    } else {
      push('punct', TWO_CHAR_OPERATORS.has(sql.slice(i, i + 2)) ? i + 2 : i + 1);
    }
  }
  return { ok: true, tokens };
}

/** Index just past the closing quote of a quoted run starting at `start`; doubled quotes escape. */
function endOfQuoted(sql: string, start: number, quote: string): number {
  let j = start + 1;
  for (;;) {
    const close = sql.indexOf(quote, j);
    if (close === -1) return -1;
    if (sql[close + 1] === quote) {
      j = close + 2;
      continue;
    }
    return close + 1;
  }
}

/**
 * True for tokens that carry meaning (not spaces or comments).
 *
 * @example
 * ```ts
 * const r = tokenizeSql('SELECT 1 -- note');
 * if (r.ok) r.tokens.filter(isSignificant).length; // 2
 * ```
 */
export function isSignificant(token: SqlToken): boolean {
  return token.kind !== 'space' && token.kind !== 'comment';
}

/**
 * Rewrite Unicode spacing outside literals: non-breaking and other wide spaces become a plain
 * space, zero-width characters disappear. Literals and comments are left untouched.
 *
 * @example
 * ```ts
 * const r = tokenizeSql('SELECT\u00a01');
 * if (r.ok) normalizeSqlSpacing(r.tokens); // 'SELECT 1'
 * ```
 */
export function normalizeSqlSpacing(tokens: readonly SqlToken[]): string {
  // Fast path, the usual case: nothing to rewrite.
  if (!tokens.some((t) => t.kind === 'space' && /[^ \t\n\v\f\r]/.test(t.text))) return tokens.map((t) => t.text).join('');
  return tokens
    .map((t) => {
      if (t.kind !== 'space') return t.text;
      let out = '';
      for (const ch of t.text) {
        const code = ch.charCodeAt(0);
        if (isZeroWidth(code)) continue;
        out += isUnicodeSpace(code) ? ' ' : ch;
      }
      return out;
    })
    .join('');
}

/**
 * The upper-cased text of a `word` token, or undefined for any other token.
 *
 * @example
 * ```ts
 * const r = tokenizeSql('select');
 * if (r.ok) keywordOf(r.tokens[0]); // 'SELECT'
 * ```
 */
export function keywordOf(token: SqlToken | undefined): string | undefined {
  return token?.kind === 'word' ? token.text.toUpperCase() : undefined;
}

/**
 * The unquoted name of a `word` or `quoted` token, else undefined.
 *
 * @example
 * ```ts
 * const r = tokenizeSql('"a""b"');
 * if (r.ok) identifierOf(r.tokens[0]); // 'a"b'
 * ```
 */
export function identifierOf(token: SqlToken | undefined): string | undefined {
  if (!token) return undefined;
  if (token.kind === 'word') return token.text;
  if (token.kind !== 'quoted') return undefined;
  const open = token.text[0]!;
  const inner = token.text.slice(1, -1);
  if (open === '[') return inner;
  return inner.split(open + open).join(open);
}
