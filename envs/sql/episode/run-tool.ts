import type { ActionRepair, SqlErrorType, SqlToolCall } from '../actions/action-types.js';
import { formatJson } from '../actions/call-format.js';
import { answerSqlText, judgeValueAnswer, looksLikeSql, type GoldAnswer } from '../judge/judge-answer.js';
import type { JudgeConfig } from '../judge/judge-config.js';
import { renderRows, renderTableDescription } from '../observation/render-result.js';
import { SqlSandboxError } from '../sandbox/errors.js';
import type { QueryLimits } from '../sandbox/limits.js';
import type { QueryLane } from '../sandbox/query-lane.js';
import type { QueryResult } from '../sandbox/query-result.js';
import type { QueryResultCache } from '../sandbox/query-result-cache.js';
import type { SchemaReader } from '../sandbox/schema-reader.js';
import { DEFAULT_SAMPLE_ROWS } from '../tools/sample.js';
import { memoHashResult, memoMatchesGold } from './result-memo.js';
import type { ToolOutcome } from './tool-outcome.js';
import { foundNothing, valueFeedback, type ValueHintSource } from './value-hint.js';
import { renderFeedback } from '../feedback/render-feedback.js';
import type { SqlFeedback, UnknownTableFeedback } from '../feedback/sql-feedback.js';
import { resultData } from './result-data.js';
import { quoteIdentifier } from '../sandbox/sql-quoting.js';

/** What a tool needs from the episode and the environment. */
export interface ToolContext {
  reader: SchemaReader;
  /** Where the env's queries run: its lane of the query pool. */
  pool: Pick<QueryLane, 'run'>;
  dbPath: string;
  tables: readonly string[];
  queryLimits: Partial<QueryLimits>;
  gold: GoldAnswer;
  judge: JudgeConfig;
  /** Strict action mode: a table name must match exactly. */
  strict: boolean;
  /** After a query that found nothing, list the closest values of a compared column whose value is in no row, and the other columns that have it (`valueFeedback`). */
  valueHints?: boolean;
  /** The episode's question, for value hints. */
  question?: string;
  /** Answers repeated deterministic queries without the query process (off when undefined). */
  queryCache?: QueryResultCache | undefined;
  /** The pool's default limits, which `queryLimits` override: part of the cache's key. */
  poolLimits?: Readonly<QueryLimits> | undefined;
}

/** Run agent SQL in the sandbox, or take its result from the cache when it ran before. */
function runSql(sql: string, context: ToolContext): Promise<QueryResult> {
  if (!context.queryCache) return context.pool.run(context.dbPath, sql, context.queryLimits);
  const runner = { limits: context.poolLimits, run: (db: string, text: string, limits?: Partial<QueryLimits>) => context.pool.run(db, text, limits) };
  return context.queryCache.run(runner, context.dbPath, sql, context.queryLimits);
}

/**
 * Run one canonical tool call against the episode's database. Never throws: sandbox failures
 * become typed error outcomes with the sandbox's instructive message.
 *
 * @example
 * ```ts
 * const outcome = await runTool({ name: 'describe', arguments: { table_name: 'singer' } }, context);
 * if (outcome.ok) console.log(outcome.text);
 * ```
 */
export async function runTool(call: SqlToolCall, context: ToolContext): Promise<ToolOutcome> {
  try {
    switch (call.name) {
      case 'describe':
        return describeTable(call.arguments.table_name, context);
      case 'sample':
        return sampleTable(call.arguments.table_name, call.arguments.n ?? DEFAULT_SAMPLE_ROWS, context);
      case 'query':
        return await runQuery(call.arguments.sql, context);
      case 'answer':
        return await submitAnswer(call.arguments.value, context);
    }
  } catch (err) {
    return errorOutcome(err);
  }
}

function describeTable(requested: string, context: ToolContext): ToolOutcome {
  const table = resolveTable(requested, 'describe', context);
  if (!table.ok) return table.outcome;
  const description = context.reader.describe(table.name);
  return {
    ok: true,
    text: renderTableDescription(description),
    summary: `${description.columns.length} columns, ${description.rowCount} rows`,
    infoKey: `describe:${table.name}`,
    describedTable: table.name,
    repairs: table.repairs,
  };
}

function sampleTable(requested: string, n: number, context: ToolContext): ToolOutcome {
  const table = resolveTable(requested, 'sample', context);
  if (!table.ok) return table.outcome;
  const sample = context.reader.sample(table.name, n, context.queryLimits.maxCellChars);
  return {
    ok: true,
    text: renderRows(sample.columns, sample.rows, sample.rows.length, true),
    summary: `${sample.rows.length} row${sample.rows.length === 1 ? '' : 's'}`,
    infoKey: `sample:${table.name}`,
    repairs: table.repairs,
  };
}

/** Distinct text values a value hint compares with, per column: enough for every name of a small table. */
const HINT_DISTINCT_VALUES = 2000;

/** The episode's database as a value hint reads it: the schema reader for columns, the sandbox for values. */
function hintSource(context: ToolContext): ValueHintSource {
  return {
    ...(context.question === undefined ? {} : { question: context.question }),
    tables: context.tables,
    columns: (table) => context.reader.describe(table).columns.map((c) => c.name),
    textValues: async (table, column) => {
      const sql = `SELECT DISTINCT ${quoteIdentifier(column)} FROM ${quoteIdentifier(table)} WHERE typeof(${quoteIdentifier(column)}) = 'text' LIMIT ${HINT_DISTINCT_VALUES}`;
      const result = await runSql(sql, context);
      return (result.fullRows ?? result.rows).map((r) => String(r[0]));
    },
  };
}

async function runQuery(sql: string, context: ToolContext): Promise<ToolOutcome> {
  const result = await runSql(sql, context);
  const rows = result.fullRows ?? result.rows;
  const table = renderRows(result.columns, result.rows, result.rowCount, result.rowCountExact);
  const nothing = foundNothing(rows);
  // A hint that cannot be read (a huge column, a timeout) is left out: the query itself succeeded.
  const feedback: SqlFeedback[] = context.valueHints && nothing ? await valueFeedback(sql, hintSource(context)).catch(() => []) : [];
  return {
    ok: true,
    text: [table, ...feedback.map(renderFeedback)].join('\n'),
    ...(feedback.length > 0 ? { feedback } : {}),
    summary: `${result.rowCount.toLocaleString('en-US')}${result.rowCountExact ? '' : '+'} row${result.rowCount === 1 && result.rowCountExact ? '' : 's'}`,
    infoKey: `result:${memoHashResult(result.columns, rows)}`,
    resultData: resultData(result),
    queryRows: rows,
    matchesGold: matchesGold(rows, context),
    foundNothing: nothing,
  };
}

/** Whether rows are the gold result under the answer judge's execution match (what an SQL answer is judged by). */
function matchesGold(rows: readonly (readonly unknown[])[], context: ToolContext): boolean {
  return memoMatchesGold(rows, context.gold, context.judge);
}

async function submitAnswer(value: unknown, context: ToolContext): Promise<ToolOutcome> {
  const mode = context.judge.answerMode;
  const asSql = mode === 'sql' || (mode === 'either' && looksLikeSql(value));
  if (!asSql) {
    const verdict = judgeValueAnswer(value, context.gold, context.judge);
    return { ok: true, text: answerText(verdict.correct), summary: verdict.correct ? 'correct' : 'wrong', verdict };
  }
  if (typeof value !== 'string') {
    const verdict = { correct: false, reason: 'answerMode "sql" needs the answer as SQL text' };
    return {
      ok: false,
      error: { type: 'invalid_argument', message: `answer needs a SQL query as "value" (answerMode "sql"). Call it as ${formatJson({ name: 'answer', arguments: { value: 'SELECT ...' } })}.` },
      verdict,
    };
  }
  try {
    const result = await runSql(answerSqlText(value), context);
    const correct = matchesGold(result.fullRows ?? result.rows, context);
    const verdict = { correct, reason: correct ? 'the answer SQL gives the gold result' : 'the answer SQL gives a different result' };
    return { ok: true, text: answerText(correct), summary: correct ? 'correct' : 'wrong', verdict };
  } catch (err) {
    // As in Spider's evaluation, a prediction that fails to run scores 0.
    const outcome = errorOutcome(err);
    return { ...outcome, verdict: { correct: false, reason: 'the answer SQL failed to run' } } as ToolOutcome;
  }
}

function answerText(correct: boolean): string {
  return `Answer submitted: ${correct ? 'correct' : 'incorrect'}. The episode is over.`;
}

type ResolvedTable = { ok: true; name: string; repairs: ActionRepair[] } | { ok: false; outcome: ToolOutcome };

function resolveTable(requested: string, tool: 'describe' | 'sample', context: ToolContext): ResolvedTable {
  const name = context.reader.resolveTable(requested);
  const example = (table: string) => formatJson({ name: tool, arguments: { table_name: table } });
  if (name === undefined) {
    const closest = closestTable(requested, context.tables);
    const feedback: UnknownTableFeedback = { kind: 'unknown_table', table: requested.slice(0, 200), tables: context.tables, tool, ...(closest === undefined ? {} : { closest }) };
    return { ok: false, outcome: { ok: false, error: { type: 'unknown_table', message: renderFeedback(feedback) }, feedback: [feedback] } };
  }
  if (name === requested) return { ok: true, name, repairs: [] };
  const repair: ActionRepair = { kind: 'table_name_case', detail: `table "${requested}" read as "${name}"` };
  if (context.strict) {
    return {
      ok: false,
      outcome: { ok: false, error: { type: 'unknown_table', message: `Strict mode refuses repairs: ${repair.detail}. Call it as ${example(name)}.` }, repairs: [repair] },
    };
  }
  return { ok: true, name, repairs: [repair] };
}

/** The table whose name shares the longest prefix with `requested` (a hint, not a repair). */
function closestTable(requested: string, tables: readonly string[]): string | undefined {
  const wanted = requested.toLowerCase();
  let best: string | undefined;
  let bestScore = 0;
  for (const table of tables) {
    const t = table.toLowerCase();
    let score = 0;
    while (score < t.length && score < wanted.length && t[score] === wanted[score]) score++;
    if (t.includes(wanted) || wanted.includes(t)) score += 2;
    if (score > bestScore) {
      best = table;
      bestScore = score;
    }
  }
  return best ?? tables[0];
}

function errorOutcome(err: unknown): ToolOutcome {
  if (err instanceof SqlSandboxError) {
    return { ok: false, error: { type: err.errorType satisfies SqlErrorType, message: err.message }, ...(err.feedback ? { feedback: [err.feedback] } : {}) };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { ok: false, error: { type: 'sql_error', message: `The database could not run this: ${message}` } };
}
