import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Tokenizer as HfTokenizer } from '@huggingface/tokenizers';
import { TokenizerError } from '../errors.js';
import { ChatTemplate, FALLBACK_CHAT_TEMPLATE, type ChatMessage, type ChatTemplateOptions } from './chat-template.js';
import { withRustWhitespace } from './pre-tokenizer-json.js';

/** Options of {@link Tokenizer.encode}. */
export interface TokenizerEncodeOptions {
  /** Add the tokenizer's own BOS/EOS decorations (default false: chat templates spell them out). */
  readonly addSpecialTokens?: boolean;
}

/** Options of {@link Tokenizer.decode}. */
export interface TokenizerDecodeOptions {
  /** Drop special tokens such as `<|im_end|>` (default false). */
  readonly skipSpecialTokens?: boolean;
}

/**
 * A model's tokenizer and chat template, loaded from the `tokenizer.json`,
 * `tokenizer_config.json` and (optionally) `chat_template.jinja` of a Hugging Face model
 * directory. Models without a template get {@link FALLBACK_CHAT_TEMPLATE}.
 *
 * @example
 * const tok = await Tokenizer.fromDir('./Qwen3-0.6B');
 * const text = tok.applyChatTemplate([{ role: 'user', content: 'Hi' }], { addGenerationPrompt: true });
 * const ids = tok.encode(text);
 */
export class Tokenizer {
  /** {@link tokenTexts}, once built. */
  private texts: readonly string[] | undefined;

  private constructor(
    private readonly inner: HfTokenizer,
    /** The chat template in use (the model's own, or the fallback). */
    readonly chatTemplate: ChatTemplate,
    /** Whether {@link chatTemplate} came from the model directory. */
    readonly hasOwnChatTemplate: boolean,
    /** Ids that end an assistant turn (EOS, `<|im_end|>`, `<|endoftext|>` where present). */
    readonly stopTokenIds: readonly number[],
    /** Id used to pad batches on the left. */
    readonly padTokenId: number,
    /** Number of ids the tokenizer can produce (BPE vocabulary plus added tokens). */
    readonly vocabSize: number,
  ) {}

  /** Loads the tokenizer files of a model directory. */
  static async fromDir(dir: string): Promise<Tokenizer> {
    const tokenizerPath = join(dir, 'tokenizer.json');
    if (!existsSync(tokenizerPath)) {
      throw new TokenizerError(`${dir}: tokenizer.json not found; copy it from the model repository (slow sentencepiece-only tokenizers are not supported)`);
    }
    const tokenizerJson = JSON.parse(await readFile(tokenizerPath, 'utf8')) as Record<string, unknown>;
    const configPath = join(dir, 'tokenizer_config.json');
    const config = existsSync(configPath) ? (JSON.parse(await readFile(configPath, 'utf8')) as Record<string, unknown>) : {};
    const templatePath = join(dir, 'chat_template.jinja');
    const fileTemplate = existsSync(templatePath) ? await readFile(templatePath, 'utf8') : undefined;
    return Tokenizer.fromJson(tokenizerJson, config, fileTemplate);
  }

  /** Builds a tokenizer from already-parsed `tokenizer.json` / `tokenizer_config.json` objects. */
  static fromJson(tokenizerJson: Record<string, unknown>, config: Record<string, unknown> = {}, templateOverride?: string): Tokenizer {
    let inner: HfTokenizer;
    try {
      // Split where transformers' Rust tokenizers split (JavaScript's `\s` differs from theirs).
      inner = new HfTokenizer(withRustWhitespace(tokenizerJson), config);
    } catch (error) {
      throw new TokenizerError(`tokenizer.json could not be loaded: ${(error as Error).message}`);
    }
    const template = templateOverride ?? pickTemplate(config['chat_template']);
    const tokenString = (key: string): string | undefined => {
      const value = config[key];
      if (typeof value === 'string') return value;
      if (value && typeof value === 'object' && typeof (value as { content?: unknown }).content === 'string') {
        return (value as { content: string }).content;
      }
      return undefined;
    };
    const specialTokens: Record<string, string> = {};
    for (const key of ['bos_token', 'eos_token', 'pad_token', 'unk_token']) {
      const value = tokenString(key);
      if (value !== undefined) specialTokens[key] = value;
    }
    const idOf = (token: string | undefined): number | undefined => (token === undefined ? undefined : inner.token_to_id(token));
    const stops = new Set<number>();
    for (const token of [specialTokens['eos_token'], '<|im_end|>', '<|endoftext|>']) {
      const id = idOf(token);
      if (id !== undefined) stops.add(id);
    }
    const vocab = inner.get_vocab(true);
    let maxId = -1;
    for (const id of vocab.values()) if (id > maxId) maxId = id;
    const pad = idOf(specialTokens['pad_token']) ?? idOf('<|endoftext|>') ?? [...stops][0] ?? 0;
    return new Tokenizer(
      inner,
      new ChatTemplate(template ?? FALLBACK_CHAT_TEMPLATE, specialTokens),
      template !== undefined,
      [...stops],
      pad,
      maxId + 1,
    );
  }

  /** Text → token ids. */
  encode(text: string, options: TokenizerEncodeOptions = {}): number[] {
    return this.inner.encode(text, { add_special_tokens: options.addSpecialTokens ?? false }).ids;
  }

  /** Token ids → text. An empty list is the empty string (a completion that stopped at once). */
  decode(ids: readonly number[], options: TokenizerDecodeOptions = {}): string {
    // The tokenizers library throws on an empty id list; generation hits that whenever the
    // first sampled token is a stop token.
    if (ids.length === 0) return '';
    return this.inner.decode([...ids], { skip_special_tokens: options.skipSpecialTokens ?? false, clean_up_tokenization_spaces: false });
  }

  /**
   * Every id's text decoded alone, special tokens as '' (what decoding guides match tokens by).
   * Built on first use and kept: a vocabulary of 151,936 tokens takes a while to decode.
   *
   * @example
   * ```ts
   * tokenizer.tokenTexts()[tokenizer.encode('SELECT')[0]!]; // 'SELECT' (or its first piece)
   * ```
   */
  tokenTexts(): readonly string[] {
    this.texts ??= Object.freeze(Array.from({ length: this.vocabSize }, (_, id) => this.decode([id], { skipSpecialTokens: true })));
    return this.texts;
  }

  /** Id of a token string (e.g. `'<|im_end|>'`), or undefined. */
  tokenToId(token: string): number | undefined {
    return this.inner.token_to_id(token);
  }

  /** Token string of an id, or undefined. */
  idToToken(id: number): string | undefined {
    return this.inner.id_to_token(id);
  }

  /** Renders messages (and tools) with the model's chat template. */
  applyChatTemplate(messages: readonly ChatMessage[], options: ChatTemplateOptions = {}): string {
    return this.chatTemplate.render(messages, options);
  }

  /** Renders with the chat template and encodes in one step. */
  encodeChat(messages: readonly ChatMessage[], options: ChatTemplateOptions = {}): number[] {
    return this.encode(this.applyChatTemplate(messages, options));
  }
}

function pickTemplate(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  // Some configs store several named templates; the default one is used for chat.
  if (Array.isArray(value)) {
    const named = value as { name?: string; template?: string }[];
    return (named.find((t) => t.name === 'default') ?? named[0])?.template;
  }
  return undefined;
}
