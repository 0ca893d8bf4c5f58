/** A canonical, validated SQLEnv tool call. */
export type SqlToolCall =
  | { name: 'describe'; arguments: { table_name: string } }
  | { name: 'sample'; arguments: { table_name: string; n?: number } }
  | { name: 'query'; arguments: { sql: string } }
  | { name: 'answer'; arguments: { value: unknown } };

/**
 * Every kind of error an action can produce: the fixed taxonomy reported as `info.error_type`.
 * Parsing produces the first five; running a call produces the rest.
 */
export type SqlErrorType =
  | 'parse_error'
  | 'unknown_tool'
  | 'missing_argument'
  | 'invalid_argument'
  | 'unknown_table'
  | 'sql_error'
  | 'forbidden_sql'
  | 'timeout'
  | 'result_too_large'
  | 'episode_over';

/**
 * All error types, in taxonomy order (for metrics and docs).
 *
 * @example
 * ```ts
 * const counts = Object.fromEntries(SQL_ERROR_TYPES.map((t) => [t, 0]));
 * ```
 */
export const SQL_ERROR_TYPES: readonly SqlErrorType[] = [
  'parse_error',
  'unknown_tool',
  'missing_argument',
  'invalid_argument',
  'unknown_table',
  'sql_error',
  'forbidden_sql',
  'timeout',
  'result_too_large',
  'episode_over',
];

/**
 * The error types that mean the call itself was malformed (not JSON, no such tool, an argument
 * missing or of the wrong type). The rest are well-formed calls the database could not carry out,
 * which an agent meets on every unknown schema; a trainer tells the two apart to see drift off the
 * tool format.
 *
 * @example
 * ```ts
 * SQL_MALFORMED_CALL_ERRORS.includes('sql_error'); // false
 * ```
 */
export const SQL_MALFORMED_CALL_ERRORS: readonly SqlErrorType[] = ['parse_error', 'unknown_tool', 'missing_argument', 'invalid_argument'];

/** A typed action error: what went wrong, in words that show the correct call. */
export interface SqlActionError {
  type: SqlErrorType;
  message: string;
}

/**
 * What the tolerant parser fixed. Kinds:
 * `json_repair` (broken JSON text), `tool_name_case`, `tool_name_alias`, `argument_alias`,
 * `dropped_null_argument`, `dropped_unknown_argument`, `coerced_type`, `positional_argument`,
 * `clamped_value`, `flattened_arguments` (arguments beside `name`), `envelope_key_alias`
 * (`parameters`/`args`/`tool` for `arguments`/`name`), `extra_tool_calls_ignored`, `bare_sql`
 * (SQL text with no tool), `table_name_case` (table name matched case-insensitively),
 * `arguments_double_encoded` (`arguments` a JSON string holding a JSON string of the object).
 * A model family's own text format is reported by its kind (see `MODEL_CALL_FORMATS`):
 * `llama_function_tag` (`<function=name>{…}</function>`), `llama_python_tag` (`<|python_tag|>{"name", "parameters"}`),
 * `llama_pythonic_list` (`[name(k="v")]`), `mistral_tool_calls` (`[TOOL_CALLS] […]`, `[TOOL_CALLS]name[ARGS]{…}`),
 * `deepseek_tool_calls` (`<｜tool▁call▁begin｜>…<｜tool▁sep｜>…`), `gemma_tool_code` (a ```tool_code block),
 * `phi_tool_call` (`<|tool_call|>[…]<|/tool_call|>`, `functools[…]`), `react_action` (`Action:` / `Action Input:`),
 * `fenced_sql` (prose around a ```sql block, run as a query).
 */
export type RepairKind =
  | 'json_repair'
  | 'tool_name_case'
  | 'tool_name_alias'
  | 'argument_alias'
  | 'dropped_null_argument'
  | 'dropped_unknown_argument'
  | 'coerced_type'
  | 'positional_argument'
  | 'clamped_value'
  | 'flattened_arguments'
  | 'envelope_key_alias'
  | 'extra_tool_calls_ignored'
  | 'bare_sql'
  | 'table_name_case'
  | 'arguments_double_encoded'
  | 'llama_function_tag'
  | 'llama_python_tag'
  | 'llama_pythonic_list'
  | 'mistral_tool_calls'
  | 'deepseek_tool_calls'
  | 'gemma_tool_code'
  | 'phi_tool_call'
  | 'react_action'
  | 'fenced_sql';

/** One repair, as reported in `info.repairs`. */
export interface ActionRepair {
  kind: RepairKind;
  detail: string;
}

/**
 * The shape an action arrived in. These are accepted forms, not repairs, so strict mode takes
 * them too: `canonical` `{name, arguments}`, `openai` `{type:'function', function:{...}}` (or a
 * message with `tool_calls`), `mcp` `{type:'call_tool', tool_name, arguments}`, `seed`
 * `{action_type, argument}`, `tool_call_tag` `<tool_call>{...}</tool_call>`, `json_text` (a JSON
 * call as a string), `keyword_text` (`DESCRIBE singer`, `QUERY: SELECT ...`), `function_text`
 * (`describe(table_name="singer")`), `model_format` (a model family's own tool-call text, Llama,
 * Mistral, DeepSeek, Gemma, Phi, ReAct or prose around a ```sql block, with the family's repair kind in `repairs`).
 */
export type ActionForm =
  | 'canonical'
  | 'openai'
  | 'mcp'
  | 'seed'
  | 'tool_call_tag'
  | 'json_text'
  | 'keyword_text'
  | 'function_text'
  | 'model_format';

/** `tolerant` repairs what it can (and reports it); `strict` turns every repair into an error. */
export type ActionMode = 'tolerant' | 'strict';

/** What {@link SqlActionParser.parse} returns: never an exception. */
export type ParsedSqlAction =
  | { ok: true; call: SqlToolCall; form: ActionForm; repairs: ActionRepair[] }
  | { ok: false; error: SqlActionError; form: ActionForm | undefined; repairs: ActionRepair[] };
