import type { Space, JSONSchema } from '../../gym/spaces/space.js';
import { ProtocolError, validationError } from '../protocol/error-codes.js';
import type { WireTool } from '../protocol/messages.js';

/** A tool as a `ToolCallSpace` defines it (the gym contract's `ToolDefinition`). */
export interface ToolLike {
  name: string;
  description: string;
  parameters: JSONSchema;
}

/** Tool names OpenEnv reserves for the session's own verbs. */
export const RESERVED_TOOL_NAMES: readonly string[] = ['reset', 'step', 'state', 'close'];

/**
 * The tools an env offers: those of its action space when it is a `ToolCallSpace` (anything
 * with a `tools` list), else none. Duck-typed so spaces from another copy of the package work.
 *
 * @example
 * ```ts
 * toolsOf(env.actionSpace); // [{ name: 'query', description: '…', input_schema: {…} }]
 * ```
 */
export function toolsOf(space: Space<unknown, unknown>): WireTool[] {
  const tools = (space as { tools?: unknown }).tools;
  if (!Array.isArray(tools)) return [];
  return tools
    .filter((t): t is ToolLike => typeof t === 'object' && t !== null && typeof (t as ToolLike).name === 'string')
    .map((t) => ({ name: t.name, description: t.description ?? '', input_schema: t.parameters ?? { type: 'object' } }));
}

/** An OpenEnv MCP-flavoured action recognised inside `step`. */
export type McpAction = { kind: 'list_tools' } | { kind: 'call_tool'; toolName: string; arguments: Record<string, unknown> };

/**
 * Recognise OpenEnv's `{type: 'list_tools'}` and `{type: 'call_tool', tool_name, arguments}`
 * actions; any other action returns `undefined` and goes to the env unchanged.
 */
export function parseMcpAction(action: unknown): McpAction | undefined {
  if (typeof action !== 'object' || action === null) return undefined;
  const a = action as Record<string, unknown>;
  if (a.type === 'list_tools') return { kind: 'list_tools' };
  if (a.type !== 'call_tool') return undefined;
  if (typeof a.tool_name !== 'string' || a.tool_name === '') {
    throw validationError([{ loc: ['body', 'action', 'tool_name'], msg: 'call_tool needs a non-empty string tool_name', type: 'missing' }]);
  }
  if (RESERVED_TOOL_NAMES.includes(a.tool_name)) {
    throw validationError([
      { loc: ['body', 'action', 'tool_name'], msg: `"${a.tool_name}" is reserved (reset, step, state, close are session verbs, not tools)`, type: 'value_error' },
    ]);
  }
  const args = a.arguments ?? {};
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw validationError([{ loc: ['body', 'action', 'arguments'], msg: 'arguments must be an object of tool parameters', type: 'type_error' }]);
  }
  return { kind: 'call_tool', toolName: a.tool_name, arguments: args as Record<string, unknown> };
}

/** Reject a call to a tool the env does not have, naming the ones it has. */
export function assertKnownTool(tools: WireTool[], name: string): void {
  if (tools.length > 0 && !tools.some((t) => t.name === name)) {
    throw new ProtocolError('VALIDATION_ERROR', `Unknown tool "${name}". Available tools: ${tools.map((t) => t.name).join(', ')}.`, {}, [
      { loc: ['tool_name'], msg: `unknown tool "${name}"; available: ${tools.map((t) => t.name).join(', ')}`, type: 'value_error' },
    ]);
  }
}
