import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { toHfConfig, type ModelArch, type ModelConfig, type RopeScaling } from '../model/config.js';
import { packageRoot } from '../../base/package-root.js';
import { writeSafetensors } from '../safetensors/writer.js';
import type { FloatDtype } from '../safetensors/dtype.js';
import { CHAT_ADDED_TOKENS, toTokenizerConfig, toTokenizerJson, trainByteLevelBpe } from '../tokenizer/bpe-trainer.js';
import { FALLBACK_CHAT_TEMPLATE } from '../tokenizer/chat-template.js';
import { tinyModelCorpus } from './corpus.js';
import { randomParameters } from './init.js';

/** Shape and seed of a tiny model. */
export interface TinyModelOptions {
  /** Decoder layers (default 2). */
  readonly layers?: number;
  /** Hidden size (default 128). */
  readonly hidden?: number;
  /** Attention heads (default 4). */
  readonly heads?: number;
  /** Key/value heads (default 2: grouped-query attention). */
  readonly kvHeads?: number;
  /** Per-head dimension (default hidden / heads). */
  readonly headDim?: number;
  /** MLP width (default 3 × hidden). */
  readonly intermediate?: number;
  /** Target tokenizer vocabulary, added tokens included (default 1024). */
  readonly vocabSize?: number;
  /**
   * `vocab_size` of the model when larger than the tokenizer's (real checkpoints pad it, e.g.
   * 151936 for Qwen); the extra embedding rows are never produced by the tokenizer.
   */
  readonly modelVocabSize?: number;
  /** `qwen3` (q/k norms, no biases) or `qwen2` (q/k/v biases). Default `qwen3`. */
  readonly arch?: Extract<ModelArch, 'qwen2' | 'qwen3'>;
  /** Tie `lm_head` to the embeddings (default true, as Qwen3-0.6B does). */
  readonly tieWordEmbeddings?: boolean;
  /** Seed of the weights (default 0). */
  readonly seed?: number;
  /** Texts to train the tokenizer on (default: {@link tinyModelCorpus} of the package). */
  readonly corpus?: readonly string[];
  /** Stored dtype of the weights (default F32). */
  readonly dtype?: FloatDtype;
  /**
   * Standard deviation of random weights (default 0.02). Larger values (≈0.2) give peaked,
   * varied next-token distributions, which makes greedy-decoding tests meaningful.
   */
  readonly initStd?: number;
  /** RoPE frequency scaling (default none). */
  readonly ropeScaling?: RopeScaling;
  /** RoPE base (default 10000). */
  readonly ropeTheta?: number;
}

/**
 * Writes a randomly initialised model in Hugging Face layout to `dir`: `config.json`,
 * `model.safetensors`, `tokenizer.json` (a byte-level BPE trained here), `tokenizer_config.json`
 * with a ChatML/Hermes `chat_template`, and `generation_config.json`. Load it with `loadModel`
 * like any downloaded model. Returns the model's configuration.
 *
 * @example
 * await createTinyModel('/tmp/tiny', { layers: 2, hidden: 128, seed: 1 });
 * const model = await loadModel('/tmp/tiny');
 */
export async function createTinyModel(dir: string, options: TinyModelOptions = {}): Promise<Omit<ModelConfig, 'raw'>> {
  const arch = options.arch ?? 'qwen3';
  const hidden = options.hidden ?? 128;
  const heads = options.heads ?? 4;
  const corpus = options.corpus ?? tinyModelCorpus(packageRoot());
  const bpe = trainByteLevelBpe(corpus, { vocabSize: options.vocabSize ?? 1024, addedTokens: CHAT_ADDED_TOKENS });
  const tokenizerJson = toTokenizerJson(bpe);
  const idOf = (content: string): number => bpe.addedTokens.find((t) => t.content === content)!.id;
  const imEnd = idOf('<|im_end|>');
  const endOfText = idOf('<|endoftext|>');
  const vocabSize = Math.max(bpe.vocab.size + bpe.addedTokens.length, options.modelVocabSize ?? 0);

  const config: Omit<ModelConfig, 'raw'> = {
    arch,
    vocabSize,
    hiddenSize: hidden,
    intermediateSize: options.intermediate ?? hidden * 3,
    numLayers: options.layers ?? 2,
    numHeads: heads,
    numKvHeads: options.kvHeads ?? Math.max(1, heads / 2),
    headDim: options.headDim ?? hidden / heads,
    rmsNormEps: 1e-6,
    ropeTheta: options.ropeTheta ?? 10000,
    ropeScaling: options.ropeScaling ?? { type: 'default' },
    maxPositions: 4096,
    tieWordEmbeddings: options.tieWordEmbeddings ?? true,
    qkvBias: arch === 'qwen2',
    oBias: false,
    qkNorm: arch === 'qwen3',
    eosTokenIds: [imEnd],
  };
  const weights = randomParameters({ ...config, raw: {} }, options.seed ?? 0, options.initStd);

  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'config.json'), JSON.stringify(toHfConfig(config), null, 2));
  await writeSafetensors(join(dir, 'model.safetensors'), weights, { dtype: options.dtype ?? 'F32', metadata: { format: 'pt' } });
  await writeFile(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson));
  const tokenizerConfig = toTokenizerConfig(bpe, { chatTemplate: FALLBACK_CHAT_TEMPLATE, modelMaxLength: config.maxPositions });
  await writeFile(join(dir, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig, null, 2));
  const generationConfig = { eos_token_id: [imEnd, endOfText], pad_token_id: endOfText, do_sample: true, temperature: 0.7, top_p: 0.9, top_k: 20 };
  await writeFile(join(dir, 'generation_config.json'), JSON.stringify(generationConfig, null, 2));
  return config;
}
