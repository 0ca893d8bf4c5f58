import type { SqlSandboxErrorType } from '../../envs/sql/sandbox/index.js';

/** A recursive CTE without end: runs until killed. */
export const RECURSIVE_BOMB = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

/**
 * Hostile statements against the fixture concert database and the error type each must get.
 * `evilFile` and `copyFile` are paths that ATTACH / VACUUM INTO would create if they worked.
 */
export function hostileCorpus(paths: { evilFile: string; copyFile: string }): [string, SqlSandboxErrorType][] {
  const { evilFile, copyFile } = paths;
  return [
    // Writes
    ["INSERT INTO singer VALUES (99, 'Evil', 'X', 1)", 'forbidden_sql'],
    ["UPDATE singer SET name = 'Evil'", 'forbidden_sql'],
    ['DELETE FROM singer', 'forbidden_sql'],
    ["REPLACE INTO singer VALUES (1, 'Evil', 'X', 1)", 'forbidden_sql'],
    ["INSERT OR REPLACE INTO singer VALUES (1, 'Evil', 'X', 1)", 'forbidden_sql'],
    ["UPDATE singer SET age = 0 RETURNING *", 'forbidden_sql'],
    ['WITH x AS (SELECT 1) DELETE FROM singer', 'forbidden_sql'],
    ['WITH x AS (SELECT * FROM singer) INSERT INTO singer SELECT * FROM x', 'forbidden_sql'],
    // Schema changes, temporary objects included
    ['DROP TABLE singer', 'forbidden_sql'],
    ['ALTER TABLE singer ADD COLUMN evil TEXT', 'forbidden_sql'],
    ['CREATE TABLE evil (a)', 'forbidden_sql'],
    ['CREATE TEMP TABLE evil AS SELECT * FROM singer', 'forbidden_sql'],
    ['CREATE TEMPORARY VIEW v AS SELECT 1', 'forbidden_sql'],
    ['CREATE INDEX evil_idx ON singer(name)', 'forbidden_sql'],
    ['CREATE TRIGGER t AFTER INSERT ON singer BEGIN DELETE FROM singer; END', 'forbidden_sql'],
    ['CREATE VIRTUAL TABLE f USING fts5(x)', 'forbidden_sql'],
    // Other databases and files
    ["ATTACH DATABASE ':memory:' AS m", 'forbidden_sql'],
    [`ATTACH '${evilFile}' AS evil`, 'forbidden_sql'],
    ['DETACH DATABASE main', 'forbidden_sql'],
    [`VACUUM INTO '${copyFile}'`, 'forbidden_sql'],
    ["SELECT load_extension('/tmp/evil.so')", 'forbidden_sql'],
    ["SELECT LOAD_EXTENSION ('/tmp/evil.so', 'init')", 'forbidden_sql'],
    ["SELECT fts3_tokenizer('simple')", 'forbidden_sql'],
    // Pragmas that change settings
    ['PRAGMA writable_schema = 1', 'forbidden_sql'],
    ['PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = NULL', 'forbidden_sql'],
    ['PRAGMA query_only = 0', 'forbidden_sql'],
    ['PRAGMA journal_mode = WAL', 'forbidden_sql'],
    ['PRAGMA user_version = 7', 'forbidden_sql'],
    ['PRAGMA database_list', 'forbidden_sql'],
    ['PRAGMA trusted_schema(1)', 'forbidden_sql'],
    // Transactions and maintenance
    ['BEGIN IMMEDIATE', 'forbidden_sql'],
    ['COMMIT', 'forbidden_sql'],
    ['SAVEPOINT s1', 'forbidden_sql'],
    ['ROLLBACK', 'forbidden_sql'],
    ['VACUUM', 'forbidden_sql'],
    ['REINDEX', 'forbidden_sql'],
    ['ANALYZE', 'forbidden_sql'],
    ['EXPLAIN DELETE FROM singer', 'forbidden_sql'],
    // Several statements, comment and Unicode tricks
    ['SELECT 1; DROP TABLE singer', 'forbidden_sql'],
    ['SELECT 1 /* ; */ ; DELETE FROM singer -- bye', 'forbidden_sql'],
    ["SELECT ';' ; DELETE FROM singer", 'forbidden_sql'],
    ['/* hello */ DROP TABLE singer', 'forbidden_sql'],
    ['-- a comment\nDELETE FROM singer', 'forbidden_sql'],
    ['DROP/**/TABLE singer', 'forbidden_sql'],
    ['dRoP tAbLe singer', 'forbidden_sql'],
    ['\ufeffDROP TABLE singer', 'forbidden_sql'],
    ['\u00a0DELETE\u00a0FROM\u00a0singer', 'forbidden_sql'],
    ['SELECT 1;\u200bDROP TABLE singer', 'forbidden_sql'],
    ['SELECT 1;\u2028UPDATE singer SET age = 1', 'forbidden_sql'],
    ['ＤＲＯＰ TABLE singer', 'sql_error'],
    ['SELECT * FROM singer WHERE name = ?', 'sql_error'],
    ["SELECT 'unterminated", 'sql_error'],
    ['SELECT * FROM no_such_table', 'sql_error'],
    // Runaway work
    [RECURSIVE_BOMB, 'timeout'],
    ['SELECT count(*) FROM big a, big b, big c, big d', 'timeout'],
    ['WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(length(randomblob(100))) FROM c', 'timeout'],
    // Huge results
    ['SELECT zeroblob(5000000)', 'result_too_large'],
    ['SELECT randomblob(600000)', 'result_too_large'],
    ['SELECT zeroblob(2000000000)', 'result_too_large'],
    ['SELECT length(zeroblob(1000000001))', 'result_too_large'],
    ["SELECT a.*, b.*, printf('%.500c', 'x') FROM big a, big b", 'result_too_large'],
  ];
}
