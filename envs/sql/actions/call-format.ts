/**
 * JSON with a space after `:` and `,` (Python's `json.dumps` style), which is how tool calls
 * appear in chat templates and therefore what error messages should show models.
 *
 * @example
 * ```ts
 * formatJson({ name: 'describe', arguments: { table_name: 'singer' } });
 * // '{"name": "describe", "arguments": {"table_name": "singer"}}'
 * ```
 */
export function formatJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(formatJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}: ${formatJson(v)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Most table names listed in one message, so errors stay short on wide schemas. */
const MAX_LISTED_TABLES = 40;

/**
 * `Tables: a, b, c.` for error messages (empty when no tables are known).
 *
 * @example
 * ```ts
 * tablesHint(['singer', 'concert']); // 'Tables: singer, concert.'
 * ```
 */
export function tablesHint(tables: readonly string[]): string {
  if (tables.length === 0) return '';
  const listed = tables.slice(0, MAX_LISTED_TABLES).join(', ');
  const more = tables.length > MAX_LISTED_TABLES ? ` and ${tables.length - MAX_LISTED_TABLES} more` : '';
  return `Tables: ${listed}${more}.`;
}
