/**
 * The one place SQLEnv's feedback becomes text: the error messages and hints an agent reads in its observation are
 * rendered here from the data a step reports in `info.feedback`, so the text and the data cannot disagree.
 */
import { formatJson, tablesHint } from '../actions/call-format.js';
import { quoteString } from '../sandbox/sql-quoting.js';
import type { SqlFeedback, UnknownColumnFeedback, UnknownTableFeedback, ValueNotFoundFeedback } from './sql-feedback.js';

/** Where a query's tables could not be listed: how to look the columns up instead. */
const NO_COLUMNS_LISTED = 'Check the column names of the tables you use (PRAGMA table_info(table) lists them)';
/** Characters of an unknown table's name repeated in a tool call's error. */
const TABLE_NAME_SHOWN = 80;

/**
 * The text of one piece of feedback, as the observation shows it (an error message, or a hint line after a result).
 *
 * @example
 * ```ts
 * renderFeedback({ kind: 'unknown_column', column: 'nme', candidates: [{ table: 'singer', columns: ['id', 'name'], more: 0 }] });
 * // "no such column: nme. Columns of singer: id, name; write text values in single quotes: 'Paris'."
 * ```
 */
export function renderFeedback(feedback: SqlFeedback): string {
  switch (feedback.kind) {
    case 'unknown_table':
      return renderUnknownTable(feedback);
    case 'unknown_column':
      return renderUnknownColumn(feedback);
    case 'value_not_found':
      return renderValueNotFound(feedback);
  }
}

function renderUnknownTable(f: UnknownTableFeedback): string {
  if (f.tool === undefined) {
    const listed = f.tables === null ? '(unreadable)' : f.tables.join(', ') || '(none)';
    return `no such table: ${f.table}. Tables in this database: ${listed}.`;
  }
  const call = f.closest === undefined ? '' : `Call it as ${formatJson({ name: f.tool, arguments: { table_name: f.closest } })}.`;
  return [`No table named "${f.table.slice(0, TABLE_NAME_SHOWN)}".`, tablesHint(f.tables ?? []), call].filter(Boolean).join(' ');
}

function renderUnknownColumn(f: UnknownColumnFeedback): string {
  const parts = f.candidates.map((t) => `${t.table}: ${t.columns.join(', ')}${t.more > 0 ? ` and ${t.more} more` : ''}`);
  const listed = parts.length > 0 ? `Columns of ${parts.join('; of ')}` : NO_COLUMNS_LISTED;
  return `no such column: ${f.column}. ${listed}; write text values in single quotes: 'Paris'.`;
}

function renderValueNotFound(f: ValueNotFoundFeedback): string {
  const where =
    f.heldBy.length > 0
      ? ` ${f.heldBy.map((h) => h.column).join(' and ')} ${f.heldBy.length === 1 ? 'has' : 'have'} ${quoteString(f.heldBy[0]!.value)}.`
      : f.questionValues.map((q) => ` The question's ${quoteString(q.value)} is in ${q.column}.`).join('');
  return `No row has ${f.column} = ${quoteString(f.value)}. Closest values of ${f.lookedUpIn}: ${f.closest.map(quoteString).join(', ')}.${where}`;
}
