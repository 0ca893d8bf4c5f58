import type { SqlToolSpec } from './tool-spec.js';

interface PropertySchema {
  type?: string | string[];
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

/**
 * The Markdown reference table of the tools, generated from their JSON Schemas so the docs
 * cannot drift from the code (a test checks docs/sql.md contains exactly this text).
 *
 * @example
 * ```ts
 * toolReferenceMarkdown(SQL_TOOL_SPECS); // '| tool | arguments | aliases | does |\n|---|...'
 * ```
 */
export function toolReferenceMarkdown(specs: readonly SqlToolSpec[]): string {
  const rows = specs.map((spec) => {
    const params = spec.definition.parameters as { properties?: Record<string, PropertySchema>; required?: string[] };
    const required = new Set(params.required ?? []);
    const args = Object.entries(params.properties ?? {}).map(([name, schema]) => {
      const type = Array.isArray(schema.type) ? schema.type.join(' \\| ') : (schema.type ?? 'any');
      const extras = [
        required.has(name) ? 'required' : 'optional',
        schema.default !== undefined ? `default ${JSON.stringify(schema.default)}` : '',
        schema.minimum !== undefined && schema.maximum !== undefined ? `${schema.minimum}–${schema.maximum}` : '',
      ].filter(Boolean);
      return `\`${name}\`: ${type} (${extras.join(', ')}) — ${schema.description ?? ''}`;
    });
    const argAliases = Object.entries(spec.argumentAliases).map(([alias, target]) => `${alias}→${target}`);
    return [
      `\`${spec.definition.name}\``,
      args.join('<br>'),
      [spec.nameAliases.join(', '), argAliases.length ? `args: ${argAliases.join(', ')}` : ''].filter(Boolean).join('<br>'),
      spec.definition.description,
    ];
  });
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(['tool', 'arguments', 'aliases accepted', 'does']), line(['---', '---', '---', '---']), ...rows.map(line)].join('\n');
}

const START_MARKER = '<!-- tools:start (generated from envs/sql/tools; run `npx tsx test/sql/update-tool-docs.ts`) -->';
const END_MARKER = '<!-- tools:end -->';

/**
 * `markdown` with the text between the tool-reference markers replaced by `table` (the markers
 * are appended when missing). Docs are in sync when this returns its input unchanged.
 *
 * @example
 * ```ts
 * const synced = syncToolReference(readFileSync('docs/sql.md', 'utf8'), toolReferenceMarkdown(SQL_TOOL_SPECS));
 * ```
 */
export function syncToolReference(markdown: string, table: string): string {
  const block = `${START_MARKER}\n${table}\n${END_MARKER}`;
  const start = markdown.indexOf('<!-- tools:start');
  const end = markdown.indexOf(END_MARKER);
  if (start < 0 || end < start) return `${markdown.trimEnd()}\n\n${block}\n`;
  return markdown.slice(0, start) + block + markdown.slice(end + END_MARKER.length);
}
