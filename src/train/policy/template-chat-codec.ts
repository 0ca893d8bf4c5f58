/**
 * A {@link ChatCodec} over a Hugging Face tokenizer and its chat template. Incremental pieces
 * (tool responses, assistant turns) are cut out of whole-conversation renderings, so the tokens
 * of a multi-turn episode are what the template itself would produce.
 */
import type { ChatTool } from '../../lm/tokenizer/chat-template.js';
import type { Tokenizer } from '../../lm/tokenizer/tokenizer.js';
import type { ChatCodec, PolicyChatMessage, PolicyTool } from './trainable-policy.js';

// Placeholder contents used to locate the pieces inside rendered conversations.
const USER = '\u0001u\u0001';
const ASSISTANT = '\u0001a\u0001';

/**
 * Chat codec for template-driven tokenizers (ChatML/Hermes, Qwen).
 *
 * @example
 * ```ts
 * const codec = new TemplateChatCodec(model.tokenizer, '<|im_end|>');
 * const prompt = codec.encodeStart([{ role: 'user', content: 'How many singers?' }], tools);
 * ```
 */
export class TemplateChatCodec implements ChatCodec {
  /** Text the template puts after an assistant message's content (e.g. `<|im_end|>\n`). */
  private readonly turnEnd: string;
  /** Text that opens an assistant turn (the generation prompt). */
  private readonly assistantOpen: string;

  constructor(
    private readonly tokenizer: Tokenizer,
    /** The stop token text that ends an assistant turn, e.g. `<|im_end|>`. */
    private readonly endOfTurn: string,
  ) {
    const withAssistant = this.render([{ role: 'user', content: USER }, { role: 'assistant', content: ASSISTANT }], false);
    const after = withAssistant.slice(withAssistant.lastIndexOf(ASSISTANT) + ASSISTANT.length);
    this.turnEnd = after;
    const prompt = this.render([{ role: 'user', content: USER }], true);
    this.assistantOpen = prompt.slice(prompt.lastIndexOf(USER) + USER.length);
  }

  private render(messages: readonly PolicyChatMessage[], addGenerationPrompt: boolean, tools: readonly PolicyTool[] = []): string {
    return this.tokenizer.applyChatTemplate(messages, {
      addGenerationPrompt,
      enableThinking: false,
      ...(tools.length ? { tools: tools.map(chatTool) } : {}),
    });
  }

  encodeStart(messages: readonly PolicyChatMessage[], tools: readonly PolicyTool[]): number[] {
    return this.tokenizer.encode(this.render(messages, true, tools));
  }

  encodeToolResponses(responses: readonly string[], turnClosed = true): number[] {
    const base: PolicyChatMessage[] = [{ role: 'user', content: USER }, { role: 'assistant', content: ASSISTANT }];
    const full = this.render([...base, ...responses.map((r) => ({ role: 'tool' as const, content: r }))], true);
    let suffix = full.slice(full.lastIndexOf(ASSISTANT) + ASSISTANT.length);
    // The generated turn already ends with the stop token; the template's copy of it is dropped.
    if (turnClosed && suffix.startsWith(this.endOfTurn)) suffix = suffix.slice(this.endOfTurn.length);
    return this.tokenizer.encode(suffix);
  }

  decode(tokens: readonly number[]): string {
    // The tokenizer library rejects an empty id list; an empty turn is empty text.
    if (tokens.length === 0) return '';
    return this.tokenizer.decode(tokens, { skipSpecialTokens: true });
  }

  encodeAssistantTurn(text: string): number[] {
    // Content plus the end-of-turn token, as a sampled turn that stopped would look.
    const end = this.turnEnd.indexOf(this.endOfTurn);
    const closing = end >= 0 ? this.turnEnd.slice(0, end + this.endOfTurn.length) : this.endOfTurn;
    return this.tokenizer.encode(text + closing);
  }

  /** The assistant generation prompt text (for diagnostics). */
  get generationPrompt(): string {
    return this.assistantOpen;
  }
}

/** A tool in the OpenAI layout the templates read; `returns` becomes transformers' `return` field. */
function chatTool(t: PolicyTool): ChatTool {
  return { type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters, ...(t.returns ? { return: t.returns } : {}) } };
}
