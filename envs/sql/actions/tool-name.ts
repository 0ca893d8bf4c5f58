import { SQL_TOOL_SPECS } from '../tools/registry.js';
import type { SqlToolName } from '../tools/tool-spec.js';
import type { ActionRepair } from './action-types.js';

/**
 * A tool name reduced to lower-case letters and digits, the form aliases are stored in.
 *
 * @example
 * ```ts
 * toolKey('Run_Query'); // 'runquery'
 * ```
 */
export function toolKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * Resolve what a model called a tool to a canonical tool name: exact names pass untouched;
 * case and separators (`DESCRIBE`, `Describe_`), namespaces (`functions.query`) and aliases
 * (`run_query`, `final_answer`, `describe_table`, `sample_rows`) are repaired and reported.
 *
 * @example
 * ```ts
 * resolveToolName('final_answer'); // { name: 'answer', repairs: [{ kind: 'tool_name_alias', ... }] }
 * resolveToolName('frobnicate');   // undefined
 * ```
 */
export function resolveToolName(raw: string): { name: SqlToolName; repairs: ActionRepair[] } | undefined {
  const exact = SQL_TOOL_SPECS.find((s) => s.definition.name === raw);
  if (exact) return { name: exact.definition.name, repairs: [] };
  const candidates = [raw];
  const lastSegment = raw.split(/[./:]/).pop();
  if (lastSegment && lastSegment !== raw) candidates.push(lastSegment);
  for (const candidate of candidates) {
    const key = toolKey(candidate);
    if (key === '') continue;
    for (const spec of SQL_TOOL_SPECS) {
      const canonical = spec.definition.name;
      if (key === canonical) {
        return { name: canonical, repairs: [{ kind: 'tool_name_case', detail: `tool "${raw}" read as "${canonical}"` }] };
      }
      if (spec.nameAliases.includes(key)) {
        return { name: canonical, repairs: [{ kind: 'tool_name_alias', detail: `tool "${raw}" read as "${canonical}"` }] };
      }
    }
  }
  return undefined;
}
