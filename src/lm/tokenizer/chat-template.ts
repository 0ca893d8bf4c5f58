import { Template } from '@huggingface/jinja';
import { TokenizerError } from '../errors.js';

/** A tool call inside an assistant message, in the OpenAI/Hugging Face chat format. */
export interface ChatToolCall {
  readonly type?: 'function';
  readonly function: { readonly name: string; readonly arguments: unknown };
}

/** One chat message as Hugging Face chat templates receive it. */
export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly content: string;
  readonly tool_calls?: readonly ChatToolCall[];
  /** Qwen3 templates render this inside `<think>` blocks. */
  readonly reasoning_content?: string;
  readonly name?: string;
}

/** A tool offered to the model in the OpenAI `tools` format. */
export interface ChatTool {
  readonly type: 'function';
  /** `return`: JSON Schema of the result, as transformers' `get_json_schema` writes it (rendered when present). */
  readonly function: { readonly name: string; readonly description: string; readonly parameters: unknown; readonly return?: unknown };
}

/** Options of chat-template rendering. */
export interface ChatTemplateOptions {
  /** Tool definitions: OpenAI format, or bare `{ name, description, parameters }` (wrapped automatically). */
  readonly tools?: readonly (ChatTool | { name: string; description: string; parameters: unknown })[];
  /** Append the opening of an assistant turn so the model answers next. */
  readonly addGenerationPrompt?: boolean;
  /** Passed to templates that read it (Qwen3 uses it to suppress thinking). */
  readonly enableThinking?: boolean;
  /** Any further variables the template reads. */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/**
 * The fallback template for models that ship none, and the template of the tiny models:
 * ChatML turns (`<|im_start|>role ... <|im_end|>`) with Hermes-style tools: the tool
 * signatures in a `<tools>` block of the system turn, calls as `<tool_call>{json}</tool_call>`,
 * results as `<tool_response>` blocks in a user turn. Written on one line; a newline right
 * after a block tag is spelled `{{ "\\n" }}` because chat templates render with `trim_blocks`.
 */
export const FALLBACK_CHAT_TEMPLATE = [
  '{% set system_text = "" %}',
  '{% if messages and messages[0].role == "system" %}{% set system_text = messages[0].content %}{% endif %}',
  '{% if tools %}',
  '<|im_start|>system\n',
  '{% if system_text %}{{ system_text }}\n\n{% endif %}',
  'Tools you can call are listed between <tools> and </tools>, one JSON signature per line:\n<tools>',
  '{% for tool in tools %}{{ "\\n" }}{{ tool | tojson }}{% endfor %}{{ "\\n" }}</tools>\n\n',
  'To call a tool, write one JSON object with "name" and "arguments" between <tool_call> and </tool_call>:\n',
  '<tool_call>\n{"name": "tool name", "arguments": {"argument": "value"}}\n</tool_call><|im_end|>\n',
  '{% elif system_text %}',
  '<|im_start|>system\n{{ system_text }}<|im_end|>\n',
  '{% endif %}',
  '{% for message in messages %}',
  '{% if message.role == "system" %}',
  '{% elif message.role == "tool" %}',
  '{% if loop.first or messages[loop.index0 - 1].role != "tool" %}<|im_start|>user{% endif %}',
  '{{ "\\n" }}<tool_response>\n{{ message.content }}\n</tool_response>',
  '{% if loop.last or messages[loop.index0 + 1].role != "tool" %}<|im_end|>\n{% endif %}',
  '{% else %}',
  '<|im_start|>{{ message.role }}\n{{ message.content }}',
  '{% if message.role == "assistant" and message.tool_calls %}',
  '{% for call in message.tool_calls %}',
  '{% if message.content or not loop.first %}{{ "\\n" }}{% endif %}',
  '<tool_call>\n{"name": "{{ call.function.name }}", "arguments": ',
  '{% if call.function.arguments is string %}{{ call.function.arguments }}{% else %}{{ call.function.arguments | tojson }}{% endif %}',
  '}\n</tool_call>',
  '{% endfor %}',
  '{% endif %}',
  '<|im_end|>\n',
  '{% endif %}',
  '{% endfor %}',
  '{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}',
].join('');

/**
 * A compiled chat template plus the special-token strings it may reference.
 *
 * @example
 * const t = new ChatTemplate(FALLBACK_CHAT_TEMPLATE, { eos_token: '<|im_end|>' });
 * t.render([{ role: 'user', content: 'How many singers?' }], { addGenerationPrompt: true });
 */
export class ChatTemplate {
  private readonly template: Template;

  constructor(
    readonly source: string,
    private readonly specialTokens: Readonly<Record<string, string>> = {},
  ) {
    try {
      this.template = new Template(source);
    } catch (error) {
      throw new TokenizerError(`chat template does not parse: ${(error as Error).message}`);
    }
  }

  /** Renders a conversation to the exact text the model was trained on. */
  render(messages: readonly ChatMessage[], options: ChatTemplateOptions = {}): string {
    const tools = options.tools?.map(normaliseTool);
    try {
      return this.template.render({
        ...this.specialTokens,
        ...options.extra,
        messages: messages.map((m) => ({ ...m })),
        ...(tools && tools.length > 0 ? { tools } : {}),
        add_generation_prompt: options.addGenerationPrompt ?? false,
        ...(options.enableThinking !== undefined ? { enable_thinking: options.enableThinking } : {}),
      });
    } catch (error) {
      throw new TokenizerError(`chat template failed to render: ${(error as Error).message}`);
    }
  }
}

function normaliseTool(tool: ChatTool | { name: string; description: string; parameters: unknown }): ChatTool {
  if ('function' in tool && (tool as ChatTool).type === 'function') return tool as ChatTool;
  const bare = tool as { name: string; description: string; parameters: unknown };
  return { type: 'function', function: { name: bare.name, description: bare.description, parameters: bare.parameters } };
}
