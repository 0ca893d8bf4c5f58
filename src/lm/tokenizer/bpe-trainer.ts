import { BYTE_TO_CHAR, preTokenize, toByteLevel } from './byte-level.js';

/** A token added on top of the BPE vocabulary, matched before BPE runs. */
export interface AddedTokenSpec {
  readonly content: string;
  /** Special tokens are dropped by `decode(..., { skipSpecialTokens: true })`. */
  readonly special: boolean;
}

/** Options of {@link trainByteLevelBpe}. */
export interface BpeTrainerOptions {
  /** Total vocabulary size, added tokens included. */
  readonly vocabSize: number;
  /** Tokens appended after the BPE vocabulary, in this order. */
  readonly addedTokens?: readonly AddedTokenSpec[];
  /** Pairs seen fewer times than this are never merged (default 2). */
  readonly minFrequency?: number;
}

/** The chat and tool-call markers of Qwen-style models, as the tiny models use them. */
export const CHAT_ADDED_TOKENS: readonly AddedTokenSpec[] = [
  { content: '<|endoftext|>', special: true },
  { content: '<|im_start|>', special: true },
  { content: '<|im_end|>', special: true },
  { content: '<tool_call>', special: false },
  { content: '</tool_call>', special: false },
  { content: '<think>', special: false },
  { content: '</think>', special: false },
];

/** A trained byte-level BPE model: symbol vocabulary, merge list and added tokens. */
export interface TrainedBpe {
  /** Symbol → id, ids 0..n-1 with the 256 byte symbols first. */
  readonly vocab: ReadonlyMap<string, number>;
  /** Merges in priority order, each `[left, right]`. */
  readonly merges: readonly (readonly [string, string])[];
  /** Added tokens with their ids (after the BPE vocabulary). */
  readonly addedTokens: readonly (AddedTokenSpec & { id: number })[];
}

const PAIR_STRIDE = 1 << 20;

/**
 * Trains a byte-level BPE vocabulary on `texts`, GPT-2 style: pre-tokenize with the
 * ByteLevel pattern, start from the 256 byte symbols, and repeatedly merge the most frequent
 * adjacent pair (ties broken by the pair's text, so training is deterministic). Added tokens
 * are cut out of the texts first so their characters do not skew the merges.
 *
 * @example
 * const bpe = trainByteLevelBpe(['SELECT name FROM singer'], { vocabSize: 300, addedTokens: CHAT_ADDED_TOKENS });
 */
export function trainByteLevelBpe(texts: Iterable<string>, options: BpeTrainerOptions): TrainedBpe {
  const added = options.addedTokens ?? [];
  const minFrequency = options.minFrequency ?? 2;
  const targetSymbols = options.vocabSize - added.length;
  if (targetSymbols < 256) {
    throw new RangeError(`vocabSize ${options.vocabSize} is too small: byte-level BPE needs 256 byte symbols plus ${added.length} added tokens`);
  }

  const symbols: string[] = [...BYTE_TO_CHAR];
  const symbolIds = new Map(symbols.map((s, i) => [s, i] as const));
  const wordCounts = countWords(texts, added.map((t) => t.content));

  const words: number[][] = [];
  const counts: number[] = [];
  for (const [word, count] of wordCounts) {
    words.push([...word].map((ch) => symbolIds.get(ch)!));
    counts.push(count);
  }

  const pairCounts = new Map<number, number>();
  const pairWords = new Map<number, Set<number>>();
  const addPairs = (w: number, sign: 1 | -1): void => {
    const syms = words[w]!;
    for (let i = 0; i + 1 < syms.length; i++) {
      const key = syms[i]! * PAIR_STRIDE + syms[i + 1]!;
      pairCounts.set(key, (pairCounts.get(key) ?? 0) + sign * counts[w]!);
      if (sign > 0) {
        let set = pairWords.get(key);
        if (!set) pairWords.set(key, (set = new Set()));
        set.add(w);
      }
    }
  };
  for (let w = 0; w < words.length; w++) addPairs(w, 1);

  const merges: [string, string][] = [];
  while (symbols.length < targetSymbols) {
    let bestKey = -1;
    let bestCount = minFrequency - 1;
    let bestText = '';
    for (const [key, count] of pairCounts) {
      if (count < bestCount || count <= 0) continue;
      const text = symbols[Math.floor(key / PAIR_STRIDE)]! + '\u0000' + symbols[key % PAIR_STRIDE]!;
      if (count > bestCount || text < bestText) {
        bestKey = key;
        bestCount = count;
        bestText = text;
      }
    }
    if (bestKey < 0) break;
    const left = Math.floor(bestKey / PAIR_STRIDE);
    const right = bestKey % PAIR_STRIDE;
    const merged = symbols[left]! + symbols[right]!;
    const mergedId = symbols.length;
    symbols.push(merged);
    symbolIds.set(merged, mergedId);
    merges.push([symbols[left]!, symbols[right]!]);

    for (const w of pairWords.get(bestKey) ?? []) {
      addPairs(w, -1);
      const syms = words[w]!;
      const next: number[] = [];
      for (let i = 0; i < syms.length; i++) {
        if (i + 1 < syms.length && syms[i] === left && syms[i + 1] === right) {
          next.push(mergedId);
          i++;
        } else {
          next.push(syms[i]!);
        }
      }
      words[w] = next;
      addPairs(w, 1);
    }
    pairCounts.delete(bestKey);
    pairWords.delete(bestKey);
  }

  return {
    vocab: symbolIds,
    merges,
    addedTokens: added.map((t, i) => ({ ...t, id: symbols.length + i })),
  };
}

function countWords(texts: Iterable<string>, addedTokens: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  const escaped = addedTokens.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const splitter = escaped.length > 0 ? new RegExp(escaped.join('|'), 'g') : undefined;
  for (const text of texts) {
    for (const segment of splitter ? text.split(splitter) : [text]) {
      for (const piece of preTokenize(segment)) {
        const word = toByteLevel(piece);
        counts.set(word, (counts.get(word) ?? 0) + 1);
      }
    }
  }
  return counts;
}

/**
 * Serialises a trained BPE as a Hugging Face `tokenizer.json` object (ByteLevel
 * pre-tokenizer, post-processor and decoder; BPE model; added tokens), loadable by
 * `@huggingface/tokenizers` and by Python `tokenizers`.
 *
 * @example
 * fs.writeFileSync('tokenizer.json', JSON.stringify(toTokenizerJson(bpe)));
 */
export function toTokenizerJson(bpe: TrainedBpe): Record<string, unknown> {
  const byteLevel = { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true };
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: bpe.addedTokens.map((t) => ({
      id: t.id,
      content: t.content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: t.special,
    })),
    normalizer: null,
    pre_tokenizer: byteLevel,
    post_processor: { ...byteLevel, trim_offsets: false },
    decoder: byteLevel,
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab: Object.fromEntries(bpe.vocab),
      merges: bpe.merges.map(([a, b]) => `${a} ${b}`),
    },
  };
}

/** Options of {@link toTokenizerConfig}. */
export interface TokenizerConfigOptions {
  /** The Jinja chat template stored under `chat_template`. */
  readonly chatTemplate: string;
  /** Token that ends an assistant turn (default `<|im_end|>`). */
  readonly eosToken?: string;
  /** Token used for padding (default `<|endoftext|>`). */
  readonly padToken?: string;
  /** Longest sequence the model takes (default 4096). */
  readonly modelMaxLength?: number;
}

/**
 * The `tokenizer_config.json` that goes beside {@link toTokenizerJson}'s file. Its
 * `tokenizer_class` is `PreTrainedTokenizerFast`, the class that takes `tokenizer.json` as it
 * is: transformers 5 rebuilds a named model class's pipeline from the class itself (a
 * `Qwen2Tokenizer` gets Qwen's NFC normaliser and digit-splitting regex), which would tokenize
 * these GPT-2-style byte-level files differently from `tokenizer.json` and from
 * this package's `Tokenizer`.
 *
 * @example
 * fs.writeFileSync('tokenizer_config.json', JSON.stringify(toTokenizerConfig(bpe, { chatTemplate: FALLBACK_CHAT_TEMPLATE })));
 */
export function toTokenizerConfig(bpe: TrainedBpe, options: TokenizerConfigOptions): Record<string, unknown> {
  return {
    tokenizer_class: 'PreTrainedTokenizerFast',
    model_max_length: options.modelMaxLength ?? 4096,
    bos_token: null,
    eos_token: options.eosToken ?? '<|im_end|>',
    pad_token: options.padToken ?? '<|endoftext|>',
    unk_token: null,
    add_prefix_space: false,
    errors: 'replace',
    clean_up_tokenization_spaces: false,
    added_tokens_decoder: Object.fromEntries(
      bpe.addedTokens.map((t) => [String(t.id), { content: t.content, lstrip: false, rstrip: false, normalized: false, single_word: false, special: t.special }]),
    ),
    chat_template: options.chatTemplate,
  };
}
