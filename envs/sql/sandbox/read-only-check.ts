import {
  identifierOf,
  isSignificant,
  keywordOf,
  normalizeSqlSpacing,
  tokenizeSql,
  type SqlToken,
} from './sql-tokens.js';

/** The screening verdict: the statement to run, or why it was refused. */
export type ReadOnlySqlCheck =
  | { ok: true; sql: string }
  | { ok: false; errorType: 'forbidden_sql' | 'sql_error'; message: string };

/**
 * Pragmas that only read the schema and may run as statements (`PRAGMA table_info(singer)`).
 * Every other pragma is refused: many change the connection (`query_only`, `writable_schema`)
 * and a few read files or settings that have nothing to do with the question.
 *
 * @example
 * ```ts
 * READ_ONLY_PRAGMAS.includes('table_info'); // true
 * ```
 */
export const READ_ONLY_PRAGMAS: readonly string[] = [
  'table_info',
  'table_xinfo',
  'table_list',
  'foreign_key_list',
  'index_list',
  'index_info',
  'index_xinfo',
];

/** Functions refused anywhere in a statement (also disabled in SQLite itself; named here for a clear message). */
const FORBIDDEN_FUNCTIONS = new Set(['load_extension', 'fts3_tokenizer', 'readfile', 'writefile', 'edit']);

const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE', 'REPLACE', 'UPSERT']);
const SCHEMA_CHANGES = new Set(['CREATE', 'DROP', 'ALTER']);
const TRANSACTIONS = new Set(['BEGIN', 'COMMIT', 'END', 'ROLLBACK', 'SAVEPOINT', 'RELEASE']);
const MAINTENANCE = new Set(['VACUUM', 'REINDEX', 'ANALYZE']);
const CONNECTION = new Set(['ATTACH', 'DETACH']);

/**
 * Longer SQL is refused before lexing: no honest query is this long, and it bounds the screening's work.
 *
 * @example
 * ```ts
 * checkReadOnlySql('SELECT ' + '1,'.repeat(MAX_SQL_CHARS) + '1'); // { ok: false, errorType: 'sql_error', … }
 * ```
 */
export const MAX_SQL_CHARS = 100_000;

const HOW_TO_READ = 'Only one read-only statement runs here: SELECT …, WITH … SELECT …, or VALUES ….';

function forbidden(message: string): ReadOnlySqlCheck {
  return { ok: false, errorType: 'forbidden_sql', message };
}
function sqlError(message: string): ReadOnlySqlCheck {
  return { ok: false, errorType: 'sql_error', message };
}

/**
 * Static screening of agent SQL before it reaches SQLite: exactly one statement, and that
 * statement a read (SELECT, WITH … SELECT, VALUES, EXPLAIN of a read, or a schema-reading
 * PRAGMA). Refuses writes, DDL (temporary objects included), ATTACH/DETACH, transactions,
 * VACUUM/REINDEX/ANALYZE, other pragmas and `load_extension()`; every refusal says what to do
 * instead. Comments, string literals and quoted identifiers are lexed as SQLite lexes them, so
 * `SELECT ';DROP TABLE t'` is one harmless statement. The returned `sql` is the single statement
 * without its trailing `;` and with Unicode spacing outside literals turned into plain spaces.
 *
 * This is the first of several layers: the query process also refuses statements that SQLite
 * reports as writing or not returning rows, and opens databases read-only with `query_only`.
 *
 * @example
 * ```ts
 * checkReadOnlySql('SELECT * FROM singer;'); // { ok: true, sql: 'SELECT * FROM singer' }
 * checkReadOnlySql('DROP TABLE singer');     // { ok: false, errorType: 'forbidden_sql', message: '…' }
 * ```
 */
export function checkReadOnlySql(sql: string): ReadOnlySqlCheck {
  if (typeof sql !== 'string') return sqlError(`the query must be SQL text, got ${typeof sql}. ${HOW_TO_READ}`);
  if (sql.length > MAX_SQL_CHARS) {
    const length = sql.length.toLocaleString('en-US');
    return sqlError(`the query is ${length} characters long; the limit is ${MAX_SQL_CHARS.toLocaleString('en-US')}. Write a shorter query.`);
  }
  const lexed = tokenizeSql(sql);
  if (!lexed.ok) return sqlError(`${lexed.message}: close the quote (double a quote inside a literal: 'it''s').`);
  const statements = splitStatements(lexed.tokens);
  if (statements.length === 0) {
    return sqlError(`the query is empty. ${HOW_TO_READ} For example: SELECT name FROM sqlite_master WHERE type = 'table'.`);
  }
  if (statements.length > 1) {
    const first = preview(statements[0]!);
    return forbidden(
      `${statements.length} statements found; send exactly one statement per query (the first is "${first}"). ` +
        'Run them as separate queries, or combine reads with a subquery, UNION or WITH.',
    );
  }
  const statement = statements[0]!;
  const verdict = screenStatement(statement.filter(isSignificant));
  if (verdict) return verdict;
  return { ok: true, sql: normalizeSqlSpacing(trimTrivia(statement)) };
}

/** Statements of a token stream: runs between unquoted `;`, dropping empty ones (as SQLite does). */
function splitStatements(tokens: readonly SqlToken[]): SqlToken[][] {
  const statements: SqlToken[][] = [];
  let current: SqlToken[] = [];
  for (const token of tokens) {
    if (token.kind === 'semicolon') {
      if (current.some(isSignificant)) statements.push(current);
      current = [];
    } else {
      current.push(token);
    }
  }
  if (current.some(isSignificant)) statements.push(current);
  return statements;
}

function trimTrivia(tokens: SqlToken[]): SqlToken[] {
  let start = 0;
  let end = tokens.length;
  while (start < end && tokens[start]!.kind === 'space') start++;
  while (end > start && tokens[end - 1]!.kind === 'space') end--;
  return tokens.slice(start, end);
}

function preview(tokens: SqlToken[]): string {
  const text = normalizeSqlSpacing(trimTrivia(tokens)).replace(/\s+/g, ' ');
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Undefined when the statement (significant tokens only) is an allowed read; else the refusal. */
function screenStatement(tokens: SqlToken[]): ReadOnlySqlCheck | undefined {
  const first = keywordOf(tokens[0]);
  if (first === undefined) {
    return sqlError(`a statement cannot start with "${tokens[0]?.text ?? ''}". ${HOW_TO_READ}`);
  }
  if (first === 'SELECT' || first === 'VALUES') return screenFunctions(tokens);
  if (first === 'WITH') return screenWith(tokens);
  if (first === 'EXPLAIN') {
    const skip = keywordOf(tokens[1]) === 'QUERY' && keywordOf(tokens[2]) === 'PLAN' ? 3 : 1;
    const rest = tokens.slice(skip);
    if (rest.length === 0) return sqlError('EXPLAIN needs a statement after it, e.g. EXPLAIN QUERY PLAN SELECT …');
    const inner = screenStatement(rest);
    if (inner && !inner.ok && inner.errorType === 'forbidden_sql') {
      return forbidden(`EXPLAIN only runs on reads: ${inner.message}`);
    }
    return inner;
  }
  if (first === 'PRAGMA') return screenPragma(tokens);
  if (WRITES.has(first)) {
    return forbidden(
      `${first} is refused: the database is read-only. To see the rows a change would touch, SELECT them ` +
        '(e.g. SELECT * FROM t WHERE … LIMIT 20); to answer the question, compute the value with SELECT.',
    );
  }
  if (SCHEMA_CHANGES.has(first)) {
    const temp = ['TEMP', 'TEMPORARY'].includes(keywordOf(tokens[1]) ?? '') ? ' (temporary objects included)' : '';
    return forbidden(
      `${first} is refused: the schema cannot be changed${temp}. To name an intermediate result use a common ` +
        'table expression: WITH name AS (SELECT …) SELECT … FROM name.',
    );
  }
  if (CONNECTION.has(first)) {
    return forbidden(
      `${first} is refused: a query can only read this question's database. Query its tables directly ` +
        "(list them with SELECT name FROM sqlite_master WHERE type = 'table').",
    );
  }
  if (TRANSACTIONS.has(first)) {
    return forbidden(`${first} is refused: transactions are not needed to read. Send the SELECT statement alone.`);
  }
  if (MAINTENANCE.has(first)) {
    return forbidden(`${first} is refused: it rewrites the database or its statistics. ${HOW_TO_READ}`);
  }
  return sqlError(`"${tokens[0]!.text}" does not start a statement that can run here. ${HOW_TO_READ}`);
}

/**
 * `WITH … <main statement>`: the CTE bodies sit inside parentheses, so the first top-level
 * SELECT/VALUES/INSERT/UPDATE/DELETE/REPLACE is the main statement.
 */
function screenWith(tokens: SqlToken[]): ReadOnlySqlCheck | undefined {
  const base = tokens[0]!.depth;
  for (const token of tokens.slice(1)) {
    if (token.depth !== base) continue;
    const word = keywordOf(token);
    if (word === 'SELECT' || word === 'VALUES') return screenFunctions(tokens);
    if (word !== undefined && WRITES.has(word)) {
      return forbidden(
        `WITH … ${word} is refused: the database is read-only. Keep the WITH clause and end it with a SELECT ` +
          '(WITH x AS (…) SELECT * FROM x).',
      );
    }
  }
  // Let SQLite report the syntax error with its own message.
  return screenFunctions(tokens);
}

function screenFunctions(tokens: SqlToken[]): ReadOnlySqlCheck | undefined {
  for (let i = 0; i < tokens.length - 1; i++) {
    if (tokens[i + 1]!.text !== '(') continue;
    const name = identifierOf(tokens[i])?.toLowerCase();
    if (name !== undefined && FORBIDDEN_FUNCTIONS.has(name)) {
      return forbidden(
        `${name}() is refused: queries cannot load extensions or touch files. Use SQLite's built-in functions.`,
      );
    }
  }
  return undefined;
}

/** `PRAGMA [schema.]name[(arg)]` with a name from {@link READ_ONLY_PRAGMAS}; assignments refused. */
function screenPragma(tokens: SqlToken[]): ReadOnlySqlCheck | undefined {
  const dotted = tokens[2]?.text === '.';
  const name = (identifierOf(tokens[dotted ? 3 : 1]) ?? '').toLowerCase();
  const allowed = READ_ONLY_PRAGMAS.join(', ');
  if (tokens.some((t) => t.text === '=')) {
    return forbidden(
      `PRAGMA ${name} = … is refused: settings cannot be changed. Reading pragmas allowed: ${allowed} ` +
        '(e.g. PRAGMA table_info(singer)).',
    );
  }
  if (!READ_ONLY_PRAGMAS.includes(name)) {
    return forbidden(
      `PRAGMA ${name || '(none)'} is refused: only these schema-reading pragmas run: ${allowed} ` +
        '(e.g. PRAGMA table_info(singer), or SELECT * FROM pragma_table_info(\'singer\')).',
    );
  }
  return undefined;
}
