import { ToolCallSpace } from '../../../src/gym/spaces/tool-call.js';
import { SQL_TOOL_NAMES, SQL_TOOLS, sqlToolSpec } from '../tools/registry.js';
import type { SqlToolSpec } from '../tools/tool-spec.js';
import type { ActionForm, ActionMode, ActionRepair, ParsedSqlAction, RepairKind, SqlErrorType, SqlToolCall } from './action-types.js';
import { checkActionShape, DEFAULT_ACTION_SHAPE_LIMITS, type ActionShapeLimits } from './action-shape.js';
import { formatJson, tablesHint } from './call-format.js';
import { decodeArgumentString, unwrapEnvelope, type UnwrappedCall } from './envelope.js';
import type { ExampleCall, ModelCallFormat } from './model-formats.js';
import { argumentAlias, normaliseArguments } from './normalise-arguments.js';
import { FunctionArguments } from './function-arguments.js';
import { readTextAction } from './text-action.js';
import { resolveToolName } from './tool-name.js';

/** What the parser needs to know about the episode to write helpful errors. */
export interface ActionContext {
  /** The database's tables, shown in error messages and used in example calls. */
  tables: readonly string[];
}

/** The error type a repair becomes in strict mode. */
const STRICT_ERROR_OF: Record<RepairKind, SqlErrorType> = {
  json_repair: 'parse_error',
  extra_tool_calls_ignored: 'parse_error',
  bare_sql: 'parse_error',
  envelope_key_alias: 'parse_error',
  flattened_arguments: 'parse_error',
  tool_name_case: 'unknown_tool',
  tool_name_alias: 'unknown_tool',
  argument_alias: 'invalid_argument',
  dropped_null_argument: 'invalid_argument',
  dropped_unknown_argument: 'invalid_argument',
  coerced_type: 'invalid_argument',
  positional_argument: 'invalid_argument',
  clamped_value: 'invalid_argument',
  table_name_case: 'unknown_table',
  arguments_double_encoded: 'invalid_argument',
  llama_function_tag: 'parse_error',
  llama_python_tag: 'parse_error',
  llama_pythonic_list: 'parse_error',
  mistral_tool_calls: 'parse_error',
  deepseek_tool_calls: 'parse_error',
  gemma_tool_code: 'parse_error',
  phi_tool_call: 'parse_error',
  react_action: 'parse_error',
  fenced_sql: 'parse_error',
};

/**
 * Turns any action form into a canonical, schema-valid {@link SqlToolCall}, never throwing.
 *
 * In `tolerant` mode (the default) it accepts every form of {@link ActionForm}, repairs names,
 * arguments and JSON where the intent is clear, and lists each repair. In `strict` mode the
 * same forms are accepted but any repair is an error. Unrecoverable actions come back as a typed
 * {@link SqlActionError} whose message shows the exact correct call and the tables.
 *
 * Arguments are validated against the tools' JSON Schemas through a {@link ToolCallSpace}, the
 * same validator the action space uses.
 *
 * @example
 * ```ts
 * const parser = new SqlActionParser('tolerant');
 * parser.parse('DESCRIBE singer', { tables: ['singer'] });
 * // → { ok: true, call: { name: 'describe', arguments: { table_name: 'singer' } }, form: 'keyword_text',
 * //     repairs: [{ kind: 'tool_name_case', ... }, { kind: 'positional_argument', ... }] }
 * parser.parse({ name: 'describe', arguments: {} }, { tables: ['singer'] }).ok; // false: missing_argument
 * ```
 */
export class SqlActionParser {
  private readonly space = new ToolCallSpace(SQL_TOOLS);

  constructor(
    readonly mode: ActionMode = 'tolerant',
    /** Bounds on an action's nesting and size; past them the action is a `parse_error` step. */
    private readonly shapeLimits: ActionShapeLimits = DEFAULT_ACTION_SHAPE_LIMITS,
  ) {}

  /** Parse one action. Never throws. */
  parse(action: unknown, context: ActionContext = { tables: [] }): ParsedSqlAction {
    try {
      return this.parseOrFail(action, context);
    } catch (err) {
      // A bug here must cost the agent a step, not crash a training run.
      const detail = err instanceof Error ? err.message : String(err);
      return fail('parse_error', `Could not read the action (${detail}). ${callHint(context)}`, undefined, []);
    }
  }

  private parseOrFail(action: unknown, context: ActionContext): ParsedSqlAction {
    // Before anything recursive (JSON, schema validation, the judge) touches the action.
    const shape = checkActionShape(action, this.shapeLimits);
    if (!shape.ok) return fail('parse_error', `Could not read the action: ${shape.message}. ${callHint(context)}`, undefined, []);
    const lifted = liftCall(action);
    const format = lifted.format;
    if (!lifted.ok) {
      return fail('parse_error', `Could not read the action: ${lifted.message}. ${callHint(context, format)}`, lifted.form, lifted.repairs);
    }
    const repairs = [...lifted.repairs];
    const resolved = resolveToolName(lifted.name);
    if (!resolved) {
      const shown = lifted.name.length > 40 ? `${lifted.name.slice(0, 40)}...` : lifted.name;
      return fail('unknown_tool', `Unknown tool "${shown}". The tools are ${SQL_TOOL_NAMES.join(', ')}. ${callHint(context, format)}`, lifted.form, repairs);
    }
    repairs.push(...resolved.repairs);
    const spec = sqlToolSpec(resolved.name);
    const rawArgs = decodeArgumentString(lifted.args, repairs);
    const named = rawArgs instanceof FunctionArguments ? placePositional(spec, rawArgs, repairs) : rawArgs;
    const normalised = normaliseArguments(spec, named, repairs);
    if (!normalised.ok) {
      const lead = normalised.kind === 'missing_argument' ? `${normalised.detail}.` : `${resolved.name}: ${normalised.detail}.`;
      return fail(normalised.kind, `${lead} ${exampleCall(spec, context, format)}`, lifted.form, repairs);
    }
    // Text forms are parsed here, so their arguments get the same bounds as structured actions.
    const argsShape = checkActionShape(normalised.args, this.shapeLimits);
    if (!argsShape.ok) {
      return fail('invalid_argument', `${resolved.name}: the arguments cannot be used: ${argsShape.message}. ${exampleCall(spec, context, format)}`, lifted.form, repairs);
    }
    const call = { name: resolved.name, arguments: normalised.args };
    const validation = this.space.validate(call);
    if (!validation.ok) {
      return fail('invalid_argument', `${validation.errors.join('; ')}. ${exampleCall(spec, context, format)}`, lifted.form, repairs);
    }
    if (this.mode === 'strict' && repairs.length > 0) {
      const first = repairs[0]!;
      return fail(
        STRICT_ERROR_OF[first.kind],
        `Strict mode refuses repairs: ${first.detail}. ${exampleCall(spec, context, format)}`,
        lifted.form,
        repairs,
      );
    }
    return { ok: true, call: call as SqlToolCall, form: lifted.form, repairs };
  }
}

/** Text or structure → the raw name and arguments, and the model family's format the text was in, if any. */
function liftCall(action: unknown): UnwrappedCall & { format?: ModelCallFormat } {
  if (typeof action !== 'string') return unwrapEnvelope(action, 'canonical');
  const text = readTextAction(action);
  if (!text.ok || text.envelope === undefined) return text;
  const inner = unwrapEnvelope(text.envelope, text.form);
  return { ...inner, repairs: [...text.repairs, ...inner.repairs], ...(text.format ? { format: text.format } : {}) };
}

/** `f("singer", n=3)` → `{ table_name: 'singer', n: 3 }`: positional values fill unnamed slots. */
function placePositional(spec: SqlToolSpec, fa: FunctionArguments, repairs: ActionRepair[]): Record<string, unknown> {
  const named: Record<string, unknown> = { ...fa.named };
  const taken = new Set(Object.keys(named).map((k) => argumentAlias(spec, k.toLowerCase()) ?? k.toLowerCase()));
  const free = spec.positional.filter((slot) => !taken.has(slot));
  fa.positional.forEach((value, i) => {
    const slot = free[i];
    if (slot === undefined) {
      repairs.push({ kind: 'dropped_unknown_argument', detail: `dropped extra positional value ${i + 1}` });
      return;
    }
    named[slot] = value;
    repairs.push({ kind: 'positional_argument', detail: `positional value read as "${slot}"` });
  });
  return named;
}

function fail(type: SqlErrorType, message: string, form: ActionForm | undefined, repairs: ActionRepair[]): ParsedSqlAction {
  return { ok: false, error: { type, message }, form, repairs };
}

function exampleTable(context: ActionContext): string {
  return context.tables[0] ?? 'table_name';
}

/** `Call it as {...}. Tables: ...` for one tool, and the call in the model family's format the action was written in. */
function exampleCall(spec: SqlToolSpec, context: ActionContext, format?: ModelCallFormat): string {
  const example = spec.example(exampleTable(context));
  return [`Call it as ${formatJson(example)}.`, inFormat(format, example), tablesHint(context.tables)].filter(Boolean).join(' ');
}

/** How to write any call, for parse errors and unknown tools. */
function callHint(context: ActionContext, format?: ModelCallFormat): string {
  const example = sqlToolSpec('describe').example(exampleTable(context));
  return [`Write one tool call such as ${formatJson(example)} (tools: ${SQL_TOOL_NAMES.join(', ')}).`, inFormat(format, example), tablesHint(context.tables)]
    .filter(Boolean)
    .join(' ');
}

/** `In the Mistral [TOOL_CALLS] format: [TOOL_CALLS] [{…}].`, for an action written in a model family's format. */
function inFormat(format: ModelCallFormat | undefined, call: ExampleCall): string {
  return format ? `In the ${format.family} format: ${format.example(call)}` : '';
}
