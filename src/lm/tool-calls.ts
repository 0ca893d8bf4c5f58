import { extractToolCalls } from '../text/index.js';

/** A tool call read from a model's reply. */
export interface ParsedToolCall {
  readonly name: string;
  readonly arguments: unknown;
  /** The text between `<tool_call>` and `</tool_call>`, as the model wrote it. */
  readonly raw: string;
  /** Repairs the tolerant JSON reader applied (empty for clean JSON). */
  readonly repairs: readonly string[];
}

/**
 * A block that looked like a tool call but could not be read. `type` is SQLEnv's
 * `parse_error`, so trainers can count it under the same metric as the environment does.
 */
export interface ToolCallFailure {
  readonly type: 'parse_error';
  readonly message: string;
  readonly raw: string;
}

/** A model reply split into thinking, visible text and tool calls. */
export interface AssistantReply {
  /** Text of the `<think>` block (Qwen3), or undefined when the reply has none. */
  readonly reasoning?: string;
  /** Visible text with thinking and tool-call blocks removed, trimmed. */
  readonly content: string;
  /**
   * The reply with only the thinking cut out (tool-call blocks kept, not trimmed): what an
   * environment that reads text actions should be given, so that a call planned inside the
   * thinking is never run. Equal to the reply when it has no thinking.
   */
  readonly withoutThinking: string;
  /** Calls in the order written (a reply may hold several). */
  readonly toolCalls: readonly ParsedToolCall[];
  /** Blocks that could not be read as calls. */
  readonly failures: readonly ToolCallFailure[];
  /** True when the reply ended inside a `<think>` block (the model ran out of tokens while thinking). */
  readonly unfinishedThinking: boolean;
}

const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';
const TOOL_CALL_BLOCK = /<tool_call>[\s\S]*?(<\/tool_call>|(?=<tool_call>)|$)/g;

/**
 * Splits a generated assistant turn into reasoning, content and tool calls. Handles Qwen3
 * `<think>…</think>` blocks (a closing tag without an opening one counts too, as Qwen3
 * templates put the opening tag in the prompt), several `<tool_call>` blocks per turn and
 * tolerant JSON inside them (through the shared `src/text` reader). Calls written inside the
 * thinking are ignored: they are plans, not actions.
 *
 * @example
 * const reply = parseAssistantReply('<think>check the table</think><tool_call>{"name": "describe", "arguments": {"table_name": "singer"}}</tool_call>');
 * reply.toolCalls[0]?.name; // 'describe'
 */
export function parseAssistantReply(text: string): AssistantReply {
  let rest = text;
  let reasoning: string | undefined;
  let unfinishedThinking = false;
  const close = rest.indexOf(THINK_CLOSE);
  const open = rest.indexOf(THINK_OPEN);
  if (close >= 0 && (open < 0 || open < close)) {
    reasoning = rest.slice(open >= 0 ? open + THINK_OPEN.length : 0, close).trim();
    rest = (open >= 0 ? rest.slice(0, open) : '') + rest.slice(close + THINK_CLOSE.length);
  } else if (open >= 0) {
    reasoning = rest.slice(open + THINK_OPEN.length).trim();
    rest = rest.slice(0, open);
    unfinishedThinking = true;
  }

  const toolCalls: ParsedToolCall[] = [];
  const failures: ToolCallFailure[] = [];
  for (const block of extractToolCalls(rest)) {
    if (block.call) {
      toolCalls.push({ name: block.call.name, arguments: block.call.arguments, raw: block.raw, repairs: block.repairs ?? [] });
    } else {
      failures.push({ type: 'parse_error', message: block.error?.message ?? 'unreadable tool call', raw: block.raw });
    }
  }
  const content = rest.replace(TOOL_CALL_BLOCK, '').trim();
  return { ...(reasoning !== undefined ? { reasoning } : {}), content, withoutThinking: rest, toolCalls, failures, unfinishedThinking };
}
