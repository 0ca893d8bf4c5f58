import type { ToolDefinition } from '../../../src/gym/spaces/tool-call.js';

/**
 * A tool as models see it (name, description, JSON Schema of its arguments): the gym's
 * `ToolDefinition` with the name narrowed to the SQLEnv tools.
 */
export interface SqlToolDefinition extends ToolDefinition {
  name: SqlToolName;
}

/** The four SQLEnv tools. */
export type SqlToolName = 'describe' | 'sample' | 'query' | 'answer';

/**
 * Everything SQLEnv knows about one tool: its schema (the single source of truth) plus the
 * tolerance knowledge the action parser uses: aliases models use for the tool and for its
 * arguments, and which argument a lone positional value fills.
 */
export interface SqlToolSpec {
  definition: SqlToolDefinition;
  /** Other names models call this tool by, lower-case, without separators (see normaliseToolKey). */
  nameAliases: readonly string[];
  /** Argument names models use instead of the schema's, mapped to the schema's. */
  argumentAliases: Readonly<Record<string, string>>;
  /**
   * The arguments positional values fill, in order: a lone positional (`DESCRIBE singer`,
   * `describe("singer")`) fills the first.
   */
  positional: readonly string[];
  /** The exact correct call, for instructive error messages; `table` is a real table name. */
  example(table: string): { name: SqlToolName; arguments: Record<string, unknown> };
}
