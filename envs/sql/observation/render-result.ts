import type { TableDescription } from '../sandbox/schema-reader.js';
import { displayNumber } from './display-number.js';

/** Longest cell shown in a rendered table; the sandbox already caps cells, this keeps rows legible. */
const MAX_RENDERED_CELL = 200;

/**
 * Render rows as a Markdown-style text table with a row-count line, e.g.
 * `showing 20 of 1,234 rows`. `rowCount` may exceed `rows.length` (the result was cut);
 * `exact` false means counting stopped, so the count is a lower bound.
 *
 * @example
 * ```ts
 * renderRows(['name'], [['Joe']], 1, true);
 * // '| name |\n|---|\n| Joe |\n(1 row)'
 * ```
 */
export function renderRows(columns: readonly string[], rows: readonly (readonly unknown[])[], rowCount: number, exact: boolean): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  const body = [line(columns.map(cellText)), line(columns.map(() => '---')), ...rows.map((r) => line(r.map(cellText)))];
  const count = `${rowCount.toLocaleString('en-US')}${exact ? '' : '+'}`;
  const footer =
    rows.length < rowCount || !exact ? `(showing ${rows.length.toLocaleString('en-US')} of ${count} rows)` : `(${count} row${rowCount === 1 ? '' : 's'})`;
  return [...body, footer].join('\n');
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  // Numbers are shown at the precision the judge compares them with (see displayNumber).
  const text = typeof value === 'string' ? value : typeof value === 'number' ? displayNumber(value) : String(value);
  const clipped = text.length > MAX_RENDERED_CELL ? `${text.slice(0, MAX_RENDERED_CELL - 1)}…` : text;
  // Pipes and newlines would break the table's layout.
  return clipped.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/**
 * Render a table description as text for the observation's `schema`: a `TABLE singer (6 rows)` line,
 * then one indented line per column (`  singer_id INTEGER PRIMARY KEY`) and per foreign key
 * (`  FOREIGN KEY stadium_id → stadium.stadium_id`).
 *
 * @example
 * ```ts
 * renderTableDescription(reader.describe('singer'));
 * ```
 */
export function renderTableDescription(table: TableDescription): string {
  const columns = table.columns.map((c) => {
    const flags = [c.type || 'ANY', c.primaryKey ? 'PRIMARY KEY' : '', c.notNull && !c.primaryKey ? 'NOT NULL' : ''].filter(Boolean).join(' ');
    return `  ${c.name} ${flags}`;
  });
  const keys = table.foreignKeys.map((k) => `  FOREIGN KEY ${k.column} → ${k.refTable}.${k.refColumn}`);
  return [`TABLE ${table.name} (${table.rowCount.toLocaleString('en-US')} rows)`, ...columns, ...keys].join('\n');
}
