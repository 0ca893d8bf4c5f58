import { ANSWER_TOOL } from './answer.js';
import { DESCRIBE_TOOL } from './describe.js';
import { QUERY_TOOL } from './query.js';
import { SAMPLE_TOOL } from './sample.js';
import type { SqlToolDefinition, SqlToolName, SqlToolSpec } from './tool-spec.js';
import { SqlEnvError } from '../sql-env-error.js';

/** The four tools with their tolerance knowledge, in the order models should learn them. */
export const SQL_TOOL_SPECS: readonly SqlToolSpec[] = [DESCRIBE_TOOL, SAMPLE_TOOL, QUERY_TOOL, ANSWER_TOOL];

/**
 * The SQLEnv tools as JSON Schema definitions: the single source for the action space, ajv
 * validation, the tools handed to models, the server's `/schema` and the docs.
 *
 * @example
 * ```ts
 * new ToolCallSpace(SQL_TOOLS).contains({ name: 'query', arguments: { sql: 'SELECT 1' } }); // true
 * ```
 */
export const SQL_TOOLS: readonly SqlToolDefinition[] = SQL_TOOL_SPECS.map((spec) => spec.definition);

/** The tool names, for messages. */
export const SQL_TOOL_NAMES: readonly SqlToolName[] = SQL_TOOLS.map((tool) => tool.name);

/**
 * The spec of a tool by its canonical name.
 *
 * @example
 * ```ts
 * sqlToolSpec('sample').positional; // ['table_name', 'n']
 * ```
 */
export function sqlToolSpec(name: SqlToolName): SqlToolSpec {
  const spec = SQL_TOOL_SPECS.find((s) => s.definition.name === name);
  if (!spec) throw new SqlEnvError(`unknown SQL tool ${name}`);
  return spec;
}

/** A tool in the OpenAI / Qwen chat-template `tools` format. */
export interface OpenAITool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/**
 * Convert tool definitions to the OpenAI / Qwen `tools` format that chat templates and
 * OpenAI-compatible APIs expect.
 *
 * @example
 * ```ts
 * toOpenAITools(SQL_TOOLS)[0];
 * // → { type: 'function', function: { name: 'describe', description: '...', parameters: {...} } }
 * ```
 */
export function toOpenAITools(tools: readonly { name: string; description: string; parameters: Record<string, unknown> }[]): OpenAITool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: structuredClone(tool.parameters) },
  }));
}
